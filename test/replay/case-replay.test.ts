import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { workflowsPath } from '../../temporal/bundle';
import { loadHistory } from './load-history';

const dir = join(import.meta.dirname, 'histories');

/** Recorded case histories must replay on today's code: a non-deterministic change fails here. */
describe('case workflow replay', function () {
  this.timeout(120_000);
  before(() => {
    try { Runtime.install({ logger: new DefaultLogger('WARN') }); } catch { /* already installed by another file */ }
  });
  const files = readdirSync(dir).filter((f) => f.startsWith('case-') && f.endsWith('.json'));

  it('has recorded histories to replay', () => {
    assert.ok(files.length > 0);
  });

  it('replays every recorded case history without non-determinism', async () => {
    const histories = files.map((f) => ({ workflowId: f, history: loadHistory(join(dir, f)) }));
    let replayed = 0;
    for await (const r of Worker.runReplayHistories({ workflowsPath, replayName: 'case-replay' }, histories)) {
      assert.equal(r.error, undefined, `${r.workflowId}: ${r.error}`);
      replayed++;
    }
    assert.equal(replayed, files.length);
  });
});
