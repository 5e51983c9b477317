import assert from 'node:assert/strict';
import { onboardingFailureToHttp } from '../../src/domains/onboarding/onboarding.commands';
import { documentLimitRefusal } from '../../src/domains/onboarding/document-limits';

const MB = 1024 * 1024;

describe('onboarding: refusals as HTTP answers, and the per-case document limits', () => {
  it('a projection that failed is a 503 the caller may retry, never a 500', () => {
    const e = onboardingFailureToHttp('PROJECTION_FAILED', 'submit could not be recorded', { action: 'submit', state: 'draft' }, 'submit');
    assert.equal(e.status, 503);
    assert.equal(e.code, 'PROJECTION_FAILED');
    assert.equal(e.extra.retry_after, 5);
    assert.match(e.detail ?? '', /non è cambiata/);
  });

  it('the case limits answer 422 (count) and 413 (total), the message on the file field', () => {
    const d = { max_documents: 30, max_bytes: 100 * MB, documents: 30, bytes: 12 * MB };
    const many = onboardingFailureToHttp('TOO_MANY_DOCUMENTS', 'x', d);
    assert.equal(many.status, 422);
    assert.deepEqual((many.extra.errors as { path: string }[]).map((x) => x.path), ['file']);
    assert.match(many.detail ?? '', /\(30\)/);
    const big = onboardingFailureToHttp('DOCUMENTS_TOO_LARGE', 'x', { ...d, documents: 3, bytes: 99.5 * MB });
    assert.equal(big.status, 413);
    assert.match(big.detail ?? '', /100 MB \(già caricati 99,5 MB\)/);
  });

  it('counts the next document against both limits; exactly full is allowed', () => {
    const limits = { maxDocuments: 3, maxBytes: MB };
    assert.equal(documentLimitRefusal(limits, { documents: 2, bytes: 0.5 * MB }, 0.5 * MB), null, 'the third document, filling the total exactly');
    assert.equal(documentLimitRefusal(limits, { documents: 3, bytes: 0 }, 1)?.code, 'TOO_MANY_DOCUMENTS');
    assert.equal(documentLimitRefusal(limits, { documents: 1, bytes: 0.5 * MB }, 0.5 * MB + 1)?.code, 'DOCUMENTS_TOO_LARGE');
    assert.equal(documentLimitRefusal(limits, { documents: 1, bytes: 0.5 * MB }, 0.5 * MB + 1)?.status, 413);
  });
});
