import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { openCase, PDF } from './onboarding-fixtures';

const MB = 1024 * 1024;

/** A distinct PDF of `size` bytes (the type is sniffed from its first bytes; each has its own content address). */
const pdfOf = (size: number, fill: number) => { const b = Buffer.alloc(size, fill); PDF.copy(b); return b; };

/**
 * What one anonymous case may upload: a number of documents and a total of bytes (tenant
 * settings onboarding.max_documents and onboarding.max_documents_mb), besides the per-file
 * limit. The API answers problem+json (422 TOO_MANY_DOCUMENTS, 413 DOCUMENTS_TOO_LARGE), the
 * wizard a message next to the file field; parallel uploads cannot both take the last share;
 * a deleted document frees its share.
 */
describe('onboarding: per-case upload limits', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const set = (chiave: string, valore: number) => env.ownerDb('settings').insert({ cod_azienda: tenant, chiave, valore: JSON.stringify(valore), updated_by: 'test', updated_at: new Date() });
    await set('onboarding.max_documents', 3);
    await set('onboarding.max_documents_mb', 1);
  });

  const upload = (c: Awaited<ReturnType<typeof openCase>>, bytes: Buffer, name = 'doc.pdf') =>
    c.client.upload(`${c.base}/documents`, { tipo: 'altro' }, { name, type: 'application/pdf', bytes });
  const storedAt = (sha: string) => join(env.deps.config.documentDir, tenant, sha.slice(0, 2), sha);
  const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

  it('counts the documents of the case: the one over the limit is 422 TOO_MANY_DOCUMENTS; deleting one frees its share', async () => {
    const c = await openCase(env, tenant, { subjectType: 'persona_fisica' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await upload(c, pdfOf(2_000, 0x41 + i));
      assert.equal(r.status, 201, r.text);
      ids.push(r.body.id);
    }
    const extra = pdfOf(2_000, 0x50);
    let r = await upload(c, extra);
    assert.equal(r.status, 422, r.text);
    assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.equal(r.body.code, 'TOO_MANY_DOCUMENTS');
    assert.equal(r.body.max_documents, 3);
    assert.equal(r.body.errors[0].path, 'file');
    assert.match(r.body.detail, /numero massimo di documenti per questa richiesta \(3\)/);
    assert.ok(!existsSync(storedAt(sha256(extra))), 'a refused upload leaves no bytes behind');
    assert.equal((await env.ownerDb('onboarding_documents').where({ case_id: c.caseId })).length, 3);

    assert.equal((await c.client.delete(`${c.base}/documents/${ids[0]}`)).status, 200);
    r = await upload(c, extra);
    assert.equal(r.status, 201, r.text);
  });

  it('adds up the bytes of the case: the file that would pass the total is 413 DOCUMENTS_TOO_LARGE', async () => {
    const c = await openCase(env, tenant, { subjectType: 'persona_fisica' });
    let r = await upload(c, pdfOf(0.6 * MB, 0x61));
    assert.equal(r.status, 201, r.text);
    const second = pdfOf(0.6 * MB, 0x62);
    r = await upload(c, second);
    assert.equal(r.status, 413, r.text);
    assert.equal(r.body.code, 'DOCUMENTS_TOO_LARGE');
    assert.equal(r.body.max_bytes, MB);
    assert.equal(r.body.errors[0].path, 'file');
    assert.match(r.body.detail, /totale ammesso di 1 MB \(già caricati 0,6 MB\)/);
    assert.ok(!existsSync(storedAt(sha256(second))));
    r = await upload(c, pdfOf(0.3 * MB, 0x63));
    assert.equal(r.status, 201, 'what still fits is accepted');
  });

  it('two parallel uploads for the last share: one is stored, the other refused (checked under the case lock)', async () => {
    const c = await openCase(env, tenant, { subjectType: 'persona_fisica' });
    for (let i = 0; i < 2; i++) assert.equal((await upload(c, pdfOf(1_000, 0x30 + i))).status, 201);
    const files = [pdfOf(1_500, 0x71), pdfOf(1_500, 0x72), pdfOf(1_500, 0x73)];
    const answers = await Promise.all(files.map((f, i) => upload(c, f, `parallelo-${i}.pdf`)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 422, 422], answers.map((a) => a.text).join('\n'));
    assert.ok(answers.filter((a) => a.status === 422).every((a) => a.body.code === 'TOO_MANY_DOCUMENTS'));
    const rows = await env.ownerDb('onboarding_documents').where({ case_id: c.caseId });
    assert.equal(rows.length, 3, 'never more than the limit');
    for (let i = 0; i < files.length; i++) {
      assert.equal(existsSync(storedAt(sha256(files[i]!))), answers[i]!.status === 201, `bytes of upload ${i} kept only if stored`);
    }
  });

  it('the wizard shows the refusal next to the file field', async () => {
    const c = await openCase(env, tenant, { subjectType: 'persona_fisica' });
    for (let i = 0; i < 3; i++) assert.equal((await upload(c, pdfOf(1_000, 0x20 + i))).status, 201);
    const r = await c.client.upload('/onboarding/documenti?passo=3', { tipo: 'documento_identita', riferimento: 'soggetto' },
      { name: 'quarto.pdf', type: 'application/pdf', bytes: pdfOf(1_000, 0x7a) }, 'query');
    assert.equal(r.status, 422);
    assert.match(r.text, /id="f-file-err">Hai già caricato il numero massimo di documenti per questa richiesta \(3\)/);
    assert.match(r.text, /aria-invalid="true" aria-describedby="f-file-hint f-file-err"/);
  });

  it('the limits are settings of the admin catalogue, with their defaults', async () => {
    const admin = await env.login(await env.createUser({ tenant, roles: ['admin'] }));
    const r = await admin.get('/api/admin/settings');
    assert.equal(r.status, 200, r.text);
    const byKey = Object.fromEntries((r.body.items ?? r.body).map((s: { chiave: string }) => [s.chiave, s]));
    assert.equal(byKey['onboarding.max_documents'].default, 30);
    assert.equal(byKey['onboarding.max_documents'].valore, 3);
    assert.equal(byKey['onboarding.max_documents_mb'].default, 100);
    const bad = await admin.put('/api/admin/settings', { chiave: 'onboarding.max_documents', valore: 0 });
    assert.equal(bad.status, 422);
  });
});
