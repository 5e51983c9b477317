import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { workflowsEntry } from '../../temporal/bundle';
import { loadHistory } from './load-history';

const dir = join(import.meta.dirname, 'histories');

/**
 * Recorded histories (cases, onboarding, e-sign ceremonies, list imports) must replay on today's code:
 * a non-deterministic change fails here. The record-*.ts scripts beside this file make them.
 */
describe('workflow replay', function () {
  this.timeout(120_000);
  before(() => {
    try { Runtime.install({ logger: new DefaultLogger('WARN') }); } catch { /* already installed by another file */ }
  });
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));

  it('has recorded histories of every kind to replay', () => {
    for (const kind of ['case-', 'onboarding-', 'esign-', 'screening-import-']) assert.ok(files.some((f) => f.startsWith(kind)), kind);
  });

  it('replays every recorded history without non-determinism', async () => {
    const histories = files.map((f) => ({ workflowId: f, history: loadHistory(join(dir, f)) }));
    let replayed = 0;
    for await (const r of Worker.runReplayHistories({ workflowsPath: workflowsEntry(), replayName: 'history-replay' }, histories)) {
      assert.equal(r.error, undefined, `${r.workflowId}: ${r.error}`);
      replayed++;
    }
    assert.equal(replayed, files.length);
  });
});
