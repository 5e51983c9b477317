import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import { withPlatform } from '../../src/db/tenant';
import { appendAudit } from '../../src/domains/audit';
import { listSources, loadListApart, sanctionsDataDir, sourceHash } from '../../src/domains/screening/screening.sources';
import { latestVersions, storeListVersion } from '../../src/domains/screening/screening.store';
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
 * The import workflow's steps. Lists are platform data, so these run in platform scope; the
 * re-screen that follows is screening-rescreen.activities.ts, tenant by tenant under RLS.
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
      const entries = await loadListApart(dir, p.list);
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

    async finishScreeningImport(p: { runId: string; status: 'completed' | 'failed'; error?: string }): Promise<void> {
      await withPlatform(platformDb, ACTOR, async (trx) => {
        await trx('screening_import_runs').where({ id: p.runId }).update({
          status: p.status, error: p.error ?? null, finished_at: new Date(),
          // What every tenant's re-screen recorded, retries included exactly once.
          matches_created: trx('screening_rescreens').where({ run_id: p.runId }).select(trx.raw('coalesce(sum(matches_created), 0)::int')),
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
