import type { Knex } from 'knex';
import { withPlatform, withTenant, type PlatformDb } from '../../db/tenant';
import { appendAudit } from '../audit';
import {
  screeningRescreenWorkflowId, type RescreenPageResult, type ScreeningRescreenResult,
} from '../../../workflows/screening/screening.contract';
import { readThresholds, screenSubject, type SubjectRow } from './screening.engine';
import { getDeltaScreener } from './screening.store';

/**
 * Re-screening every tenant's subjects after a list import, page by page. Each page is one
 * short transaction of one tenant; a page retried after its transaction committed finds its
 * subjects already marked with the run and moves on, so every subject is screened once per
 * run and its counters stay exact. Matches are unique per subject and entry content besides.
 */

export const RESCREEN_ACTOR = 'system:screening-import';

export interface RescreenRow {
  run_id: string;
  cod_azienda: string;
  workflow_id: string;
  status: 'pending' | 'running' | 'completed' | 'failed';
  subjects_total: number;
  subjects_done: number;
  pages_done: number;
  matches_created: number;
  error: string | null;
  started_at: Date | null;
  updated_at: Date;
  finished_at: Date | null;
}

const setRescreenProgress = (trx: Knex.Transaction, runId: string, value: Record<string, unknown>) => trx.raw(
  "update screening_import_runs set progress = jsonb_set(progress, '{phase}', '\"rescreen\"') || jsonb_build_object('rescreen', ?::jsonb) where id = ?",
  [JSON.stringify(value), runId],
);

/**
 * The tenants to re-screen (active ones with subjects), each with a progress row. None when
 * the versions changed no entry: unchanged entries were screened before and raise nothing new.
 */
export async function planRescreen(platformDb: PlatformDb, p: { runId: string; versionIds: number[] }): Promise<string[]> {
  return withPlatform(platformDb, RESCREEN_ACTOR, async (trx) => {
    const entries = p.versionIds.length
      ? Number((await trx('screening_list_entries').whereIn('changed_version_id', p.versionIds).count({ n: '*' }).first())?.n ?? 0)
      : 0;
    const tenants = entries === 0 ? [] : await trx('screening_subjects as s').join('aziende as a', 'a.cod_azienda', 's.cod_azienda')
      .where('a.attiva', true).groupBy('s.cod_azienda').orderBy('s.cod_azienda')
      .select('s.cod_azienda', trx.raw('count(*)::int as n')) as { cod_azienda: string; n: number }[];
    for (let i = 0; i < tenants.length; i += 500) {
      await trx('screening_rescreens').insert(tenants.slice(i, i + 500).map((t) => ({
        run_id: p.runId, cod_azienda: t.cod_azienda, workflow_id: screeningRescreenWorkflowId(t.cod_azienda, p.runId), subjects_total: t.n,
      }))).onConflict(['run_id', 'cod_azienda']).ignore();
    }
    await setRescreenProgress(trx, p.runId, { entries, tenants: tenants.length, subjects: tenants.reduce((n, t) => n + t.n, 0) });
    return tenants.map((t) => t.cod_azienda);
  });
}

export interface PageHooks {
  /** Called after each subject: the activity's heartbeat. */
  progress?: (detail: { after: string }) => void;
  /** Aborted when the activity is cancelled: the page's transaction rolls back. */
  signal?: AbortSignal;
}

/** Screens the next page of one tenant's subjects not yet screened by this run, in one transaction. */
export async function rescreenTenantPage(db: Knex, p: {
  runId: string; codAzienda: string; versionIds: number[]; after: string | null; pageSize: number;
}, hooks: PageHooks = {}): Promise<RescreenPageResult> {
  hooks.progress?.({ after: p.after ?? '' });
  const screener = await getDeltaScreener(db, p.versionIds);
  return withTenant(db, { codAzienda: p.codAzienda, actor: RESCREEN_ACTOR }, async (trx) => {
    // An attempt that timed out may still be running: the next one waits for it to end.
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`screening-rescreen:${p.runId}:${p.codAzienda}`]);
    const rows = await trx('screening_subjects').where({ cod_azienda: p.codAzienda })
      .modify((q) => { if (p.after) q.where('id', '>', p.after); })
      .where((q) => q.whereNull('rescreen_run_id').orWhereNot('rescreen_run_id', p.runId))
      .orderBy('id').limit(p.pageSize) as SubjectRow[];
    const thresholds = await readThresholds(trx, p.codAzienda);
    let matchesCreated = 0;
    for (const subject of rows) {
      hooks.signal?.throwIfAborted();
      const r = await screenSubject(trx, { codAzienda: p.codAzienda, subject, screener, thresholds, actor: RESCREEN_ACTOR, importRunId: p.runId });
      matchesCreated += r.created.length;
      hooks.progress?.({ after: subject.id });
    }
    if (rows.length) await trx('screening_subjects').whereIn('id', rows.map((r) => r.id)).update({ rescreen_run_id: p.runId });
    await trx('screening_rescreens').insert({
      run_id: p.runId, cod_azienda: p.codAzienda, workflow_id: screeningRescreenWorkflowId(p.codAzienda, p.runId), status: 'running',
      subjects_done: rows.length, pages_done: 1, matches_created: matchesCreated, started_at: trx.fn.now(),
    }).onConflict(['run_id', 'cod_azienda']).merge({
      status: 'running', started_at: trx.raw('coalesce(screening_rescreens.started_at, now())'), updated_at: trx.fn.now(),
      subjects_done: trx.raw('screening_rescreens.subjects_done + ?', [rows.length]),
      pages_done: trx.raw('screening_rescreens.pages_done + 1'),
      matches_created: trx.raw('screening_rescreens.matches_created + ?', [matchesCreated]),
    });
    return { screened: rows.length, matchesCreated, lastId: rows.at(-1)?.id ?? p.after, done: rows.length < p.pageSize };
  });
}

/** Closes one tenant's re-screen, with its audit event; returns the totals its pages recorded. */
export async function finishTenantRescreen(db: Knex, p: {
  runId: string; codAzienda: string; status: 'completed' | 'failed'; error?: string;
}): Promise<ScreeningRescreenResult> {
  return withTenant(db, { codAzienda: p.codAzienda, actor: RESCREEN_ACTOR }, async (trx) => {
    const [row] = await trx('screening_rescreens').where({ run_id: p.runId, cod_azienda: p.codAzienda }).update({
      status: p.status, error: p.error ?? null, finished_at: trx.fn.now(), updated_at: trx.fn.now(),
    }).returning('*') as RescreenRow[];
    const result = { codAzienda: p.codAzienda, pages: row?.pages_done ?? 0, screened: row?.subjects_done ?? 0, matchesCreated: row?.matches_created ?? 0 };
    await appendAudit(trx, {
      codAzienda: p.codAzienda, actor: RESCREEN_ACTOR, action: `screening.rescreen.${p.status}`, entityType: 'screening_import', entityId: p.runId,
      data: { subjects: result.screened, pages: result.pages, matches: result.matchesCreated, ...(p.error ? { error: p.error } : {}) },
    });
    return result;
  });
}

/**
 * A run's re-screen as the reader may see it: all tenants in platform scope, the reader's own
 * tenant otherwise (row-level security decides).
 */
export async function rescreenProgress(trx: Knex.Transaction, runId: string) {
  const tenants = await trx('screening_rescreens').where({ run_id: runId }).orderBy('cod_azienda') as RescreenRow[];
  const sum = (k: 'subjects_total' | 'subjects_done' | 'matches_created') => tenants.reduce((n, t) => n + t[k], 0);
  return {
    tenants,
    tenants_total: tenants.length,
    tenants_done: tenants.filter((t) => t.status === 'completed').length,
    subjects_total: sum('subjects_total'),
    subjects_done: sum('subjects_done'),
    matches_created: sum('matches_created'),
  };
}
