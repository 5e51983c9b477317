import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { PLATFORM_SCOPE, runList, tenantScope, type ListParams, type ListScope } from '../../kit/list';
import { importRunsList } from './screening.lists';
import type { Deps } from '../../deps';
import { withPlatform, withTenant } from '../../db/tenant';
import { hasRole, tenantOf } from '../../http/auth';
import type { SessionUser } from '../../http/context';
import { conflict } from '../../http/errors';
import type { Ctx } from '../../http/render';
import { STAFF_READ, type Role } from '../../kit/roles';
import { recordSearchAttributes } from '../../../temporal/search-attributes';
import {
  SCREENING_IMPORT_RECORD_TYPE, SCREENING_IMPORT_WORKFLOW_TYPE, screeningImportWorkflowId, type ScreeningImportInput,
} from '../../../workflows/screening/screening.contract';
import { rescreenProgress } from './screening.rescreen';

/**
 * A list import touches every tenant (it re-screens all their subjects): platform work, for
 * the superadmin only. A tenant's staff re-screens its own subjects through the screening routes.
 */
export const IMPORTERS: Role[] = ['superadmin'];
/** Who may follow the imports: every staff role sees the runs and its own tenant's re-screen. */
export const IMPORT_READERS: Role[] = [...STAFF_READ, 'superadmin'];

/**
 * Reads of import runs and their re-screens. The superadmin reads in platform scope (every
 * tenant's progress, with or without an active tenant); anyone else in their tenant, where
 * row-level security shows only their own tenant's re-screen.
 */
/** The list scope matching inImportScope's transaction. */
export const importListScope = (ctx: Ctx): ListScope => (hasRole(ctx.state.user!, IMPORTERS) ? PLATFORM_SCOPE : tenantScope(tenantOf(ctx)));

export function inImportScope<T>(deps: Deps, ctx: Ctx, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  const user = ctx.state.user!;
  return hasRole(user, IMPORTERS)
    ? withPlatform(deps.platformDb, user.username, fn)
    : withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: user.username }, fn);
}

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

const withLink = (deps: Deps) => <R extends { workflow_id: string }>(r: R) => ({ ...r, workflow_url: deps.temporal.webUiLink(r.workflow_id) });

export async function latestRun(deps: Deps, trx: Knex.Transaction) {
  const r = await trx('screening_import_runs').orderBy('started_at', 'desc').first() as ({ id: string; workflow_id: string } & Record<string, unknown>) | undefined;
  return r ? withLink(deps)(r) : null;
}

/** The latest run with its re-screen progress, per tenant as far as the reader may see. */
export async function importStatus(deps: Deps, trx: Knex.Transaction) {
  const run = await latestRun(deps, trx);
  if (!run) return { run: null, rescreen: null };
  const rescreen = await rescreenProgress(trx, run.id);
  return { run, rescreen: { ...rescreen, tenants: rescreen.tenants.map(withLink(deps)) } };
}

/** Past imports, newest first; the same rows whoever reads (they belong to no tenant). */
export async function runHistory(deps: Deps, trx: Knex.Transaction, scope: ListScope, q: ListParams) {
  const page = await runList<{ workflow_id: string } & Record<string, unknown>>(trx, importRunsList, scope, q);
  return { ...page, items: page.items.map(withLink(deps)) };
}
