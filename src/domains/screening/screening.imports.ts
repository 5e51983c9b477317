import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import { withPlatform } from '../../db/tenant';
import type { SessionUser } from '../../http/context';
import { conflict } from '../../http/errors';
import { recordSearchAttributes } from '../../../temporal/search-attributes';
import {
  SCREENING_IMPORT_RECORD_TYPE, SCREENING_IMPORT_WORKFLOW_TYPE, screeningImportWorkflowId, type ScreeningImportInput,
} from '../../../workflows/screening/screening.contract';

/** A run still "running" after this long is taken as abandoned and does not block a new one. */
const STALE_MS = 6 * 60 * 60 * 1000;

/** Records the run and starts its workflow; a second import while one runs is a 409. */
export async function startImport(deps: Deps, user: SessionUser) {
  const runId = randomUUID();
  const workflowId = screeningImportWorkflowId(runId);
  await withPlatform(deps.platformDb, user.username, async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', ['screening-import-start']);
    const running = await trx('screening_import_runs').where({ status: 'running' }).where('started_at', '>', new Date(Date.now() - STALE_MS)).first('id', 'workflow_id');
    if (running) throw conflict('IMPORT_RUNNING', 'Un\'importazione delle liste è già in corso', { run_id: running.id, workflow_id: running.workflow_id });
    await trx('screening_import_runs').insert({ id: runId, workflow_id: workflowId, trigger: 'manual', status: 'running', requested_by: user.username });
  });
  const client = await deps.temporal.get();
  const input: ScreeningImportInput = { runId, trigger: 'manual', requestedBy: user.username };
  try {
    await client.workflow.start(SCREENING_IMPORT_WORKFLOW_TYPE, {
      workflowId, taskQueue: deps.temporal.taskQueue, args: [input],
      typedSearchAttributes: recordSearchAttributes({ recordType: SCREENING_IMPORT_RECORD_TYPE, recordId: runId, status: 'running' }),
    });
  } catch (err) {
    await withPlatform(deps.platformDb, user.username, (trx) => trx('screening_import_runs').where({ id: runId }).update({ status: 'failed', error: String(err), finished_at: new Date() }));
    throw err;
  }
  return { run_id: runId, workflow_id: workflowId, workflow_url: deps.temporal.webUiLink(workflowId), status_url: '/api/v1/screening/import/stato' };
}

const withLink = (deps: Deps) => (r: Record<string, unknown> & { workflow_id: string }) => ({ ...r, workflow_url: deps.temporal.webUiLink(r.workflow_id) });

export async function latestRun(deps: Deps, trx: Knex.Transaction) {
  const r = await trx('screening_import_runs').orderBy('started_at', 'desc').first();
  return r ? withLink(deps)(r) : null;
}

export async function runHistory(deps: Deps, trx: Knex.Transaction, limit: number, offset: number) {
  const rows = await trx('screening_import_runs').orderBy('started_at', 'desc').limit(limit).offset(offset);
  const count = await trx('screening_import_runs').count<{ n: string }[]>({ n: '*' });
  return { items: rows.map(withLink(deps)), total: Number(count[0]?.n ?? 0), limit, offset };
}
