/**
 * Records periodic-review histories on the dev server into test/replay/histories/:
 *  - cdd-review-due-before-controls-patch.json: the review as it was before
 *    CDD_REVIEW_CONTROLS_PATCH (a bare timer), built from the code of LEGACY_COMMIT;
 *  - cdd-review-before-controls-patch-rescheduled.json: such a review, started on the old
 *    code, then rescheduled on today's (a review sleeping in production when this shipped);
 *  - cdd-review-rescheduled-due.json and cdd-review-cancelled.json: today's code.
 * Activities are recorders: replay checks the workflow's commands, not the writes.
 * Run it again when a deliberate, patched change needs a new baseline; old histories stay.
 *   node --import tsx test/replay/record-cdd-review-history.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { projectRoot } from '../../src/config';
import { freePort } from '../../src/infra/free-port';
import { temporalCliPath } from '../../temporal/binaries';
import { workflowsEntry } from '../../temporal/bundle';
import { startTemporalDevServer } from '../../temporal/dev-server';
import { ensureSearchAttributes } from '../../temporal/search-attributes';
import {
  CDD_REVIEW_WORKFLOW_TYPE, cancelCddReviewUpdate, cddReviewWorkflowId, rescheduleCddReviewUpdate, type CddReviewInput,
} from '../../workflows/cdd/cdd-review.contract';

/** The last commit whose periodic review had no controls. */
const LEGACY_COMMIT = '2c86d6bd71b145205605fa7e3f8d83e2b58ab4cf';
const TENANT = 'REPLAYCDD';
const co = { id: '00000000-0000-4000-8000-0000000000c0', username: 'co', roles: ['co'] };
const analyst = { id: '00000000-0000-4000-8000-0000000000a0', username: 'analista', roles: ['analyst'] };
const activities = { async markCddReviewDue() {}, async projectCddReviewChange() {} };
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

function legacyWorkflows(): string {
  // In the project (git-ignored .tmp-*) so that the bundler resolves @temporalio/workflow and compiles TypeScript.
  const dir = join(projectRoot, '.tmp-cdd-review-legacy');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${LEGACY_COMMIT} workflows | tar -x -C "${dir}"`], { cwd: projectRoot });
  return join(dir, 'workflows', 'index.ts');
}

async function main() {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const server = await startTemporalDevServer({ port: await freePort() });
  const connection = await Connection.connect({ address: server.address });
  try {
    await ensureSearchAttributes(connection.operatorService, 'default');
    const client = new Client({ connection });
    const nativeConnection = await NativeConnection.connect({ address: server.address });
    const worker = (taskQueue: string, path = workflowsEntry()) => Worker.create({ connection: nativeConnection, taskQueue, workflowsPath: path, activities });
    const start = (taskQueue: string, reviewId: string, dueAt: string) => {
      const input: CddReviewInput = { codAzienda: TENANT, codAnagrafe: 'ANA-000001', reviewId, dueAt };
      return client.workflow.start(CDD_REVIEW_WORKFLOW_TYPE, { workflowId: cddReviewWorkflowId(TENANT, reviewId), taskQueue, args: [input] });
    };
    const dump = (h: WorkflowHandle, name: string) => {
      // The CLI writes proto3 JSON, the format Worker.runReplayHistories reads back.
      const json = execFileSync(temporalCliPath(), ['workflow', 'show', '--workflow-id', h.workflowId, '--address', server.address, '--output', 'json'], { encoding: 'utf8' });
      const file = join(import.meta.dirname, 'histories', name);
      writeFileSync(file, json);
      console.log(`wrote ${file} (${JSON.parse(json).events.length} events)`);
    };
    const legacy = legacyWorkflows();

    // The review as it was: sleeps, marks due.
    await (await worker('cdd-legacy', legacy)).runUntil(async () => {
      const h = await start('cdd-legacy', '00000000-0000-4000-8000-00000000d001', inSeconds(2));
      await h.result();
      dump(h, 'cdd-review-due-before-controls-patch.json');
    });

    // Started on the old code, its timer running; then today's code reschedules it.
    const sleeping = await start('cdd-upgrade', '00000000-0000-4000-8000-00000000d002', inSeconds(3600));
    await (await worker('cdd-upgrade', legacy)).runUntil(async () => {
      for (;;) {
        const events = (await sleeping.fetchHistory()).events ?? [];
        if (events.some((e) => e.timerStartedEventAttributes)) break;
        await new Promise((r) => setTimeout(r, 200));
      }
    });
    await (await worker('cdd-upgrade')).runUntil(async () => {
      await sleeping.executeUpdate(rescheduleCddReviewUpdate, { args: [{ actor: co, dueAt: inSeconds(3), reason: 'anticipata dopo una segnalazione' }] });
      await sleeping.result();
      dump(sleeping, 'cdd-review-before-controls-patch-rescheduled.json');
    });

    await (await worker('cdd-current')).runUntil(async () => {
      const moved = await start('cdd-current', '00000000-0000-4000-8000-00000000d003', inSeconds(3600));
      await moved.executeUpdate(rescheduleCddReviewUpdate, { args: [{ actor: analyst, dueAt: inSeconds(1800), reason: 'anticipata' }] });
      await moved.executeUpdate(cancelCddReviewUpdate, { args: [{ actor: analyst, reason: 'non spetta' }] }).catch(() => undefined); // refused by the validator: not in history
      await moved.executeUpdate(rescheduleCddReviewUpdate, { args: [{ actor: co, dueAt: inSeconds(3), reason: 'anticipata ancora' }] });
      await moved.result();
      dump(moved, 'cdd-review-rescheduled-due.json');

      const cancelled = await start('cdd-current', '00000000-0000-4000-8000-00000000d004', inSeconds(3600));
      await cancelled.executeUpdate(cancelCddReviewUpdate, { args: [{ actor: co, reason: 'rapporto cessato' }] });
      await cancelled.result();
      dump(cancelled, 'cdd-review-cancelled.json');
    });
    await nativeConnection.close();
  } finally {
    await connection.close();
    await server.stop();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
