import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import { withPlatform, withTenant } from '../../src/db/tenant';
import { appendAudit } from '../../src/domains/audit';
import { readThresholds, screenSubject, type SubjectRow } from '../../src/domains/screening/screening.engine';
import { listSources, sanctionsDataDir, sourceHash } from '../../src/domains/screening/screening.sources';
import { changedEntries, latestVersions, storeListVersion } from '../../src/domains/screening/screening.store';
import { Screener } from '../../src/domains/screening/lib/match/screener';
import type { ImportTrigger, ListImportResult } from '../../workflows/screening/screening.contract';
import type { ActivityDeps } from '../deps';

const ACTOR = 'system:screening-import';

async function patchProgress(trx: Knex.Transaction, runId: string, list: string, value: Record<string, unknown>) {
  await trx.raw(
    "update screening_import_runs set progress = jsonb_set(progress, '{lists}', coalesce(progress->'lists', '{}'::jsonb) || jsonb_build_object(?::text, ?::jsonb)) where id = ?",
    [list, JSON.stringify(value), runId],
  );
}

/**
 * The import workflow's steps. Lists are platform data, so these run in platform scope;
 * the re-screen then works tenant by tenant, each in its own transaction under RLS.
 */
export function createScreeningImportActivities({ db, platformDb, logger }: ActivityDeps) {
  return {
    /** Records the run (idempotent: the API may have inserted it already) and names the lists to import. */
    async beginScreeningImport(p: { runId: string; workflowId: string; trigger: ImportTrigger; requestedBy?: string }): Promise<string[]> {
      const lists = listSources().map((s) => s.list);
      await withPlatform(platformDb, p.requestedBy ?? ACTOR, async (trx) => {
        await trx('screening_import_runs').insert({
          id: p.runId, workflow_id: p.workflowId, trigger: p.trigger, status: 'running', requested_by: p.requestedBy ?? null,
        }).onConflict('id').ignore();
        const progress = { phase: 'import', lists: Object.fromEntries(lists.map((l) => [l, { status: 'pending' }])) };
        await trx('screening_import_runs').where({ id: p.runId }).update({ lists_total: lists.length, progress: JSON.stringify(progress) });
      });
      return lists;
    },

    async importScreeningList(p: { runId: string; list: string }): Promise<ListImportResult> {
      const dir = sanctionsDataDir();
      const source = listSources(dir).find((s) => s.list === p.list);
      if (!source) throw ApplicationFailure.create({ type: 'LIST_NOT_FOUND', message: `list ${p.list} not found in ${dir}`, nonRetryable: true });
      await withPlatform(platformDb, ACTOR, (trx) => patchProgress(trx, p.runId, p.list, { status: 'running' }));
      const hash = sourceHash(dir, source.path);
      const latest = (await latestVersions(db)).find((v) => v.list_name === p.list);
      if (latest?.content_hash === hash) {
        const result = { list: p.list, versionId: latest.id, entries: latest.entry_count, added: 0, modified: 0, removed: 0, skipped: true };
        await withPlatform(platformDb, ACTOR, async (trx) => {
          await patchProgress(trx, p.runId, p.list, { status: 'unchanged', entries: latest.entry_count });
          await trx('screening_import_runs').where({ id: p.runId }).increment('lists_done', 1);
        });
        return result;
      }
      const t = performance.now();
      const entries = await source.load();
      return withPlatform(platformDb, ACTOR, async (trx) => {
        // One import of a list at a time: two concurrent runs would diff against the same base.
        await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`screening-list:${p.list}`]);
        const v = await storeListVersion(trx, { list: p.list, sourcePath: source.path, contentHash: hash, entries, runId: p.runId });
        await patchProgress(trx, p.runId, p.list, { status: 'done', entries: entries.length, added: v.added, modified: v.modified, removed: v.removed, ms: Math.round(performance.now() - t) });
        await trx('screening_import_runs').where({ id: p.runId }).update({
          lists_done: trx.raw('lists_done + 1'), added: trx.raw('added + ?', [v.added]),
          modified: trx.raw('modified + ?', [v.modified]), removed: trx.raw('removed + ?', [v.removed]),
        });
        await appendAudit(trx, {
          codAzienda: null, actor: ACTOR, action: 'screening.list.import', entityType: 'screening_list', entityId: p.list,
          data: { run_id: p.runId, version_id: v.versionId, entries: entries.length, added: v.added, modified: v.modified, removed: v.removed },
        });
        logger.info({ list: p.list, entries: entries.length, added: v.added, modified: v.modified, removed: v.removed }, 'screening list imported');
        return { list: p.list, versionId: v.versionId, entries: entries.length, added: v.added, modified: v.modified, removed: v.removed, skipped: false };
      });
    },

    /**
     * Screens every tenant's subjects against the entries these versions added or changed,
     * only: unchanged entries were screened before and cannot raise anything new.
     */
    async rescreenAfterImport(p: { runId: string; versionIds: number[] }): Promise<{ subjects: number; matchesCreated: number }> {
      await withPlatform(platformDb, ACTOR, (trx) => trx.raw(
        "update screening_import_runs set progress = jsonb_set(progress, '{phase}', '\"rescreen\"') where id = ?", [p.runId]));
      const delta = await changedEntries(db, p.versionIds);
      let subjects = 0, matchesCreated = 0;
      if (delta.length) {
        const screener = new Screener(delta);
        const tenants = await withPlatform(platformDb, ACTOR, (trx) =>
          trx('screening_subjects').distinct('cod_azienda').pluck('cod_azienda')) as string[];
        for (const codAzienda of tenants) {
          await withTenant(db, { codAzienda, actor: ACTOR }, async (trx) => {
            const thresholds = await readThresholds(trx, codAzienda);
            const rows = await trx('screening_subjects').select('*') as SubjectRow[];
            for (const subject of rows) {
              const r = await screenSubject(trx, { codAzienda, subject, screener, thresholds, actor: ACTOR, importRunId: p.runId });
              matchesCreated += r.created.length;
            }
            subjects += rows.length;
          });
        }
      }
      await withPlatform(platformDb, ACTOR, (trx) => trx.raw(
        "update screening_import_runs set matches_created = ?, progress = progress || jsonb_build_object('rescreen', jsonb_build_object('entries', ?::int, 'subjects', ?::int, 'matches', ?::int)) where id = ?",
        [matchesCreated, delta.length, subjects, matchesCreated, p.runId]));
      return { subjects, matchesCreated };
    },

    async finishScreeningImport(p: { runId: string; status: 'completed' | 'failed'; error?: string }): Promise<void> {
      await withPlatform(platformDb, ACTOR, async (trx) => {
        await trx('screening_import_runs').where({ id: p.runId }).update({
          status: p.status, error: p.error ?? null, finished_at: new Date(),
          progress: trx.raw("jsonb_set(progress, '{phase}', to_jsonb(?::text))", [p.status]),
        });
        await appendAudit(trx, {
          codAzienda: null, actor: ACTOR, action: `screening.import.${p.status}`, entityType: 'screening_import', entityId: p.runId,
          data: p.error ? { error: p.error } : {},
        });
      });
    },
  };
}
