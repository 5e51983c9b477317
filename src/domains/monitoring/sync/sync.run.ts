import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { withTenant } from '../../../db/tenant';
import { engineInstance } from '../evaluation/realtime';
import { ensureReferenceLists } from '../lists/lists.repo';
import { syncSourceDb } from './sync.replica';
import { contentHash, SYNC_SOURCES, type Stamp, type SyncTipo } from './sync.sources';

/**
 * One sync run of a tenant and kind (docs/monitoring.md, "The engine process and its sync"): the
 * platform's stamps are compared with the copy's page by page (in key order, a few short tenant
 * transactions per page), and only what changed is read and written: a record new or changed is
 * copied with its stamp and hash, a record the platform no longer has leaves the copy. A record
 * that fails its checks (or whose write fails) is a dead letter of the run, with the reason, and
 * its row leaves the copy, so the engine reads it from the platform until a replay copies it; the
 * others are copied all the same. A run that fails as a whole (the database gone) is recorded
 * `fallita` with its error.
 */

export const SYNC_PAGE = 500;

export interface SyncCounts { esaminati: number; inseriti: number; aggiornati: number; rimossi: number; invariati: number; scarti: number }
export interface SyncRun {
  codAzienda: string;
  tipo: SyncTipo;
  origine: 'pianificata' | 'manuale' | 'replay';
  actor: string;
  /** A replay: the dead letter replayed, and its keys (undefined: every record, as a full run). */
  replayOf?: { id: string; codSync: string; keys?: readonly string[] };
}

export const newSyncCode = (now = new Date()) => `SYNC-${now.toISOString().slice(0, 10).replaceAll('-', '')}-${randomBytes(6).toString('hex').toUpperCase()}`;

interface CopyRow { chiave: string; fonte: string; hash: string }

/** The page's keys whose stamp the copy does not have, and the copy's keys the platform no longer has. */
function diff(platform: Stamp[], copy: CopyRow[]) {
  const have = new Map(copy.map((r) => [r.chiave, r]));
  const seen = new Set(platform.map((s) => s.chiave));
  return { have, gone: copy.filter((r) => !seen.has(r.chiave)).map((r) => r.chiave), changed: platform.filter((s) => have.get(s.chiave)?.fonte !== s.fonte) };
}

async function writePage(trx: Knex.Transaction, run: { codAzienda: string; tipo: SyncTipo; codSync: string; syncId: string }, d: ReturnType<typeof diff>,
  records: Map<string, unknown>, counts: SyncCounts) {
  const { codAzienda, tipo, codSync, syncId } = run;
  const source = SYNC_SOURCES[tipo];
  if (d.gone.length) counts.rimossi += await trx('engine_copia').where({ cod_azienda: codAzienda, tipo }).whereIn('chiave', d.gone).delete();
  const rows: Record<string, unknown>[] = [];
  const dead: { chiave: string; motivo: string }[] = [];
  for (const s of d.changed) {
    const record = records.get(s.chiave);
    // Gone between the stamp and the read: the next run removes it from the copy, if there.
    if (record === undefined) continue;
    const motivo = source.problem(record);
    if (motivo) { dead.push({ chiave: s.chiave, motivo }); continue; }
    const hash = contentHash(record);
    const prev = d.have.get(s.chiave);
    if (prev?.hash === hash) {
      // Same content under a new stamp (a write that changed nothing the engine reads): the stamp moves on.
      await trx('engine_copia').where({ cod_azienda: codAzienda, tipo, chiave: s.chiave }).update({ fonte: s.fonte, cod_sync: codSync, aggiornato_at: trx.fn.now() });
      counts.invariati += 1;
      continue;
    }
    if (prev) counts.aggiornati += 1; else counts.inseriti += 1;
    rows.push({ cod_azienda: codAzienda, tipo, chiave: s.chiave, contenuto: JSON.stringify(record), hash, fonte: s.fonte, cod_sync: codSync, aggiornato_at: trx.fn.now() });
  }
  if (rows.length) await trx('engine_copia').insert(rows).onConflict(['cod_azienda', 'tipo', 'chiave']).merge();
  if (dead.length) {
    // The copy never keeps a record the platform changed into one the engine cannot take.
    await trx('engine_copia').where({ cod_azienda: codAzienda, tipo }).whereIn('chiave', dead.map((x) => x.chiave)).delete();
    await trx('engine_sync_scarti').insert(dead.map((x) => ({ cod_azienda: codAzienda, sync_id: syncId, tipo, chiave: x.chiave, motivo: x.motivo })))
      .onConflict(['sync_id', 'chiave']).merge();
    counts.scarti += dead.length;
  }
}

async function copyRows(trx: Knex.Transaction, codAzienda: string, tipo: SyncTipo, q: { from?: string; to?: string; keys?: readonly string[] }): Promise<CopyRow[]> {
  const b = trx('engine_copia').where({ cod_azienda: codAzienda, tipo }).select('chiave', 'fonte', 'hash').orderBy('chiave');
  if (q.keys) b.whereIn('chiave', [...q.keys]);
  if (q.from !== undefined) b.andWhere('chiave', '>', q.from);
  if (q.to !== undefined) b.andWhere('chiave', '<=', q.to);
  return b;
}

/** Runs one sync and returns its record (`cod_sync`, state, counts). Never throws for a failure of the run itself: that is its record's state. */
export async function runSync(db: Knex, run: SyncRun): Promise<{ id: string; cod_sync: string; stato: string } & SyncCounts> {
  const { codAzienda, tipo } = run;
  const id = randomUUID();
  const codSync = newSyncCode();
  const ctx = { codAzienda, actor: run.actor };
  await withTenant(db, ctx, (trx) => trx('engine_sync').insert({
    id, cod_azienda: codAzienda, cod_sync: codSync, tipo, origine: run.origine, replay_di: run.replayOf?.codSync ?? null, motore: engineInstance(), avviata_da: run.actor,
  }));
  const counts: SyncCounts = { esaminati: 0, inseriti: 0, aggiornati: 0, rimossi: 0, invariati: 0, scarti: 0 };
  const source = SYNC_SOURCES[tipo];
  // The platform is read where the engine reads it (a replica when configured), the copy written on the primary.
  const from = syncSourceDb(db);
  const ids = { codAzienda, tipo, codSync, syncId: id };
  /** One page: the platform's stamps, the copy's rows in the same range, the changed records read, then written. */
  const page = async (stamps: (trx: Knex.Transaction) => Promise<Stamp[]>, range: (platform: Stamp[]) => { from?: string; to?: string; keys?: readonly string[] }) => {
    // Short transactions one after the other, never two connections at once: a concurrent run writes the same rows the same way.
    const platform = await withTenant(from, ctx, stamps);
    const d = diff(platform, await withTenant(db, ctx, (trx) => copyRows(trx, codAzienda, tipo, range(platform))));
    counts.esaminati += platform.length + d.gone.length;
    counts.invariati += platform.length - d.changed.length;
    const records = d.changed.length ? await withTenant(from, ctx, (trx) => source.read(trx, codAzienda, d.changed.map((s) => s.chiave))) : new Map<string, unknown>();
    await withTenant(db, ctx, (trx) => writePage(trx, ids, d, records, counts));
    return platform;
  };
  let errore: string | undefined;
  try {
    // The tenant's reference lists are brought up to date (a write) before they are compared.
    if (tipo === 'lista') await withTenant(db, ctx, (trx) => ensureReferenceLists(trx, codAzienda));
    const keys = run.replayOf?.keys;
    if (keys) {
      for (let i = 0; i < keys.length; i += SYNC_PAGE) {
        const slice = keys.slice(i, i + SYNC_PAGE);
        await page((trx) => source.stamps(trx, codAzienda, { keys: slice }), () => ({ keys: slice }));
      }
    } else {
      let after: string | undefined;
      for (;;) {
        const platform = await page((trx) => source.stamps(trx, codAzienda, { after, limit: SYNC_PAGE }),
          // The copy's rows in the same key range: up to the page's last key, or to the end on the last page.
          (p) => ({ from: after, to: p.length === SYNC_PAGE ? p.at(-1)!.chiave : undefined }));
        if (platform.length < SYNC_PAGE) break;
        after = platform.at(-1)!.chiave;
      }
    }
  } catch (err) {
    errore = err instanceof Error ? err.message : String(err);
  }
  const outcome = errore ? 'fallita' : counts.scarti ? 'scarti' : 'completata';
  // A replay that fails again is no dead letter of its own: the dead letter it replayed records the attempt.
  const stato = run.replayOf && outcome !== 'completata' ? 'ritentata' : outcome;
  await withTenant(db, ctx, async (trx) => {
    await trx('engine_sync').where({ id }).update({ ...counts, stato, errore: errore ?? null, ended_at: trx.fn.now() });
    if (!run.replayOf) return;
    if (outcome === 'completata') {
      // A replay that copied everything closes the dead letter it replayed.
      await trx('engine_sync').where({ id: run.replayOf.id }).whereIn('stato', ['scarti', 'fallita'])
        .update({ stato: 'rieseguita', rieseguita_da: codSync, rieseguita_at: trx.fn.now() });
      return;
    }
    await recordFailedAttempt(trx, run.replayOf.id, { id, codSync, errore, scarti: outcome === 'scarti' ? counts.scarti : undefined });
  });
  return { id, cod_sync: codSync, stato, ...counts };
}

/**
 * A replay that did not copy everything, recorded on the dead letter it replayed (one more attempt,
 * the last error and time, the replay's run). When the replay got as far as the records, the ones
 * it still could not copy (with today's reasons) become the dead letter's, replacing those it
 * copied: the next replay reads only those. A replay that failed as a whole leaves them as they are.
 */
async function recordFailedAttempt(trx: Knex.Transaction, deadId: string, replay: { id: string; codSync: string; errore?: string; scarti?: number }) {
  let ultimo = replay.errore;
  const change: Record<string, unknown> = {};
  if (replay.scarti !== undefined) {
    await trx('engine_sync_scarti').where({ sync_id: deadId }).delete();
    await trx('engine_sync_scarti').where({ sync_id: replay.id }).update({ sync_id: deadId });
    const first = await trx('engine_sync_scarti').where({ sync_id: deadId }).orderBy('chiave').first('chiave', 'motivo') as { chiave: string; motivo: string } | undefined;
    ultimo = `${replay.scarti} record non copiati${first ? ` (${first.chiave}: ${first.motivo})` : ''}`;
    Object.assign(change, { stato: 'scarti', scarti: replay.scarti });
  }
  await trx('engine_sync').where({ id: deadId }).whereIn('stato', ['scarti', 'fallita']).update({
    ...change, tentativi: trx.raw('tentativi + 1'), ultimo_errore: ultimo ?? null, ultimo_tentativo_at: trx.fn.now(), ultimo_tentativo_da: replay.codSync,
  });
}

/** Completed runs are kept this long (the Schedule writes three every few minutes); dead letters and replays are kept. */
export const SYNC_RUNS_KEPT_DAYS = 7;

/** Every kind of a tenant, one run each (the Schedule's sync), then the completed runs past their keeping time removed. */
export async function syncTenant(db: Knex, codAzienda: string, origine: 'pianificata' | 'manuale', actor: string) {
  const out = [];
  for (const tipo of ['regola', 'lista', 'cliente'] as const) out.push({ tipo, ...await runSync(db, { codAzienda, tipo, origine, actor }) });
  await withTenant(db, { codAzienda, actor }, (trx) => trx('engine_sync').where({ cod_azienda: codAzienda, stato: 'completata' }).whereNot('origine', 'replay')
    .andWhere('started_at', '<', trx.raw(`now() - interval '${SYNC_RUNS_KEPT_DAYS} days'`)).delete());
  return out;
}
