import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { INVALID_DATA_FAILURE, withDataErrorsNonRetryable } from '../../activities/lib/data-errors';
import { createActivities } from '../../activities';
import { loadConfig } from '../../src/config';
import { isStorableText, unstorableFields } from '../../src/http/storable-text';

const pgError = (code: string, extra: Record<string, string> = {}) => Object.assign(new Error(`pg ${code}`), { code, ...extra });

describe('activities never retry for ever on data the database refuses', () => {
  it('turns SQLSTATE classes 22 and 23 into non-retryable failures naming the code', async () => {
    for (const code of ['22021', '22P05', '22P02', '22001', '23505', '23503', '23502', '23514']) {
      const acts = withDataErrorsNonRetryable({ write: async () => { throw pgError(code, { constraint: 'c_x' }); } });
      await assert.rejects(acts.write(), (err: unknown) => {
        assert.ok(err instanceof ApplicationFailure, code);
        assert.equal(err.nonRetryable, true);
        assert.equal(err.type, INVALID_DATA_FAILURE);
        assert.match(err.message, new RegExp(code));
        return true;
      });
    }
  });

  it('leaves every other failure to the retry policy (connection lost, serialization, deadlock, plain errors)', async () => {
    for (const err of [pgError('08006'), pgError('40001'), pgError('40P01'), pgError('57P01'), new Error('boom')]) {
      const acts = withDataErrorsNonRetryable({ write: async () => { throw err; } });
      await assert.rejects(acts.write(), (e: unknown) => e === err);
    }
    const ok = withDataErrorsNonRetryable({ add: async (a: number, b: number) => a + b });
    assert.equal(await ok.add(2, 3), 5);
  });

  it('is applied to every activity the worker registers', async () => {
    const acts = createActivities({ db: undefined as never, platformDb: undefined as never, logger: undefined as never, config: loadConfig({ ...process.env, NODE_ENV: 'test' }) }) as Record<string, unknown>;
    assert.ok(Object.keys(acts).length > 10);
    // Each activity is the wrapper (an async arrow taking ...args), not the original function.
    for (const [name, fn] of Object.entries(acts)) assert.equal((fn as { name: string }).name, '', `${name} is wrapped`);
  });
});

describe('the storable-text rule', () => {
  it('finds NUL and lone surrogates, with their paths, in values and keys', () => {
    assert.equal(isStorableText('Perché 😀'), true, 'a surrogate pair is fine');
    assert.equal(isStorableText('a\u0000'), false);
    assert.equal(isStorableText('\uD800x'), false);
    assert.equal(isStorableText('x\uDC00'), false);
    assert.deepEqual(unstorableFields({ a: 'ok', b: ['x', 'y\u0000'], c: { 'k\uD800': 1 }, d: 3 }).map((e) => e.path), ['b.1', 'c.k\uD800']);
    assert.deepEqual(unstorableFields('\u0000').map((e) => e.path), ['_form']);
  });
});
