import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { workflowsEntry } from '../../temporal/bundle';
import { CDD_REVIEW_CONTROLS_PATCH } from '../../workflows/cdd/cdd-review.workflow';
import { loadHistory } from './load-history';

const dir = join(import.meta.dirname, 'histories');

/**
 * Recorded histories (cases, filings, SOS reports, regulatory reports (reporting), customer dossiers, onboarding, e-sign ceremonies, list imports, file imports, risk assessments and portfolio runs,
 * verifications, monitoring's daily batch, replay, backtest and release) must replay on today's code:
 * a non-deterministic change fails here. The record-*.ts scripts beside this file make them.
 */
describe('workflow replay', function () {
  this.timeout(120_000);
  before(() => {
    try { Runtime.install({ logger: new DefaultLogger('WARN') }); } catch { /* already installed by another file */ }
  });
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));

  it('has recorded histories of every kind to replay', () => {
    for (const kind of ['case-', 'onboarding-', 'esign-', 'screening-import-', 'cdd-review-', 'cdd-task-', 'edd-', 'risk-assessment-', 'risk-run-', 'verification-', 'travel-rule-', 'filing-', 'sos-', 'reporting-', 'dossier-']) assert.ok(files.some((f) => f.startsWith(kind)), kind);
    // Monitoring's engine (record-monitoring-history.ts): the daily batch and its sweep, a replay, a backtest, a release.
    for (const kind of ['monitoring-daily-completed', 'monitoring-daily-sweep', 'monitoring-replay-', 'monitoring-backtest-', 'monitoring-release-']) assert.ok(files.some((f) => f.startsWith(kind)), kind);
    for (const kind of ['case-', 'onboarding-', 'esign-', 'screening-import-', 'cdd-review-', 'cdd-task-', 'edd-', 'import-']) assert.ok(files.some((f) => f.startsWith(kind)), kind);
  });

  it('has periodic reviews recorded before the controls patch and after it', () => {
    // A patch is a `core_patch` marker whose payload names it.
    const patchedFile = (f: string) => (JSON.parse(readFileSync(join(dir, f), 'utf8')).events as Record<string, any>[])
      .flatMap((e) => e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads ?? [])
      .some((p: { data: string }) => JSON.parse(Buffer.from(p.data, 'base64').toString('utf8')).id === CDD_REVIEW_CONTROLS_PATCH);
    const reviews = files.filter((f) => f.startsWith('cdd-review-'));
    const before = reviews.filter((f) => f.includes('before-controls-patch'));
    assert.ok(before.length >= 2 && before.every((f) => !patchedFile(f)), `unpatched: ${before.join(', ')}`);
    assert.ok(reviews.some((f) => !before.includes(f) && patchedFile(f)), 'a patched review history');
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
