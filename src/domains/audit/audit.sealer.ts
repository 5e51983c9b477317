import type { Knex } from 'knex';
import { withPlatform, withTenant, type PlatformDb } from '../../db/tenant';
import type { Logger } from '../../infra/logger';
import { GENESIS_HASH, hashEvent, type AuditRow } from './audit.chain';

const SEALER = 'system:audit-sealer';
/** Events sealed per transaction: large enough to keep up, small enough to stay a short transaction. */
export const SEAL_BATCH = 2000;

/** A PostgreSQL array literal of values that need no quoting (ids and hex hashes). */
const pgArray = (values: (string | number)[]) => `{${values.join(',')}}`;

/**
 * Seals up to `batch` events of one chain in one short transaction: each gets the next seq,
 * the previous event's hash and its own. Events are taken in the order they became visible
 * (committed) and, among those, in the order they were written, so an event committed late
 * is chained late: once sealed, nothing can be inserted before it. Returns how many were
 * sealed, or null when another sealer is working on the chain.
 */
export async function sealBatch(db: Knex, chain: string, batch = SEAL_BATCH): Promise<number | null> {
  return withTenant(db, { codAzienda: chain, actor: SEALER }, async (trx) => {
    const lock = await trx.raw('select pg_try_advisory_xact_lock(hashtext(?)) as ok', [`audit-seal:${chain}`]);
    if (!lock.rows[0].ok) return null;
    const head = await trx('audit_events').where({ cod_azienda: chain }).whereNotNull('seq').orderBy('seq', 'desc').first('seq', 'hash') as { seq: number; hash: string } | undefined;
    const rows = await trx('audit_events').where({ cod_azienda: chain }).whereNull('seq').orderBy('id').limit(batch)
      .select('id', 'cod_azienda', 'occurred_at', 'actor', 'action', 'entity_type', 'entity_id', 'data') as Omit<AuditRow, 'seq' | 'prev_hash' | 'hash'>[];
    if (!rows.length) return 0;
    let seq = head?.seq ?? 0;
    let prev = head?.hash ?? GENESIS_HASH;
    const ids: number[] = [], seqs: number[] = [], prevs: string[] = [], hashes: string[] = [];
    for (const r of rows) {
      seq++;
      const hash = hashEvent({ ...r, seq, prev_hash: prev });
      ids.push(r.id); seqs.push(seq); prevs.push(prev); hashes.push(hash);
      prev = hash;
    }
    await trx.raw('select audit_seal(?, ?::bigint[], ?::bigint[], ?::text[], ?::text[])', [chain, pgArray(ids), pgArray(seqs), pgArray(prevs), pgArray(hashes)]);
    return rows.length;
  });
}

/** Seals every event of the chain visible now, batch after batch; null when another sealer has it. */
export async function sealChain(db: Knex, chain: string, batch = SEAL_BATCH): Promise<number | null> {
  let total = 0;
  for (;;) {
    const n = await sealBatch(db, chain, batch);
    if (n === null) return total || null;
    total += n;
    if (n < batch) return total;
  }
}

/** Chains with events waiting for their seal: a platform-wide read of chain names only. */
export async function unsealedChains(platformDb: PlatformDb): Promise<string[]> {
  return withPlatform(platformDb, SEALER, (trx) => trx('audit_events').whereNull('seq').distinct('cod_azienda').pluck('cod_azienda'));
}

/** One pass over every chain with unsealed events, a few chains at a time. */
export async function sealAll(db: Knex, platformDb: PlatformDb, concurrency = 4): Promise<number> {
  const queue = await unsealedChains(platformDb);
  let sealed = 0;
  const lane = async () => {
    for (let chain = queue.shift(); chain !== undefined; chain = queue.shift()) sealed += (await sealChain(db, chain)) ?? 0;
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, lane));
  return sealed;
}

export interface AuditSealer { stop(): Promise<void> }

/**
 * The loop that keeps every chain sealed, run by each worker process: it polls for unsealed
 * events and seals them. Several workers may run it; the per-chain try-lock lets one seal
 * a chain while the others skip it. A failing database slows it down, never stops it.
 */
export function startAuditSealer(opts: { db: Knex; platformDb: PlatformDb; logger: Logger; intervalMs?: number }): AuditSealer {
  const interval = opts.intervalMs ?? 200;
  let stopped = false;
  let wake: (() => void) | undefined;
  let failures = 0;
  const pause = (ms: number) => new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    t.unref();
    wake = () => { clearTimeout(t); resolve(); };
  });
  const loop = (async () => {
    while (!stopped) {
      let sealed = 0;
      try {
        sealed = await sealAll(opts.db, opts.platformDb);
        if (failures) opts.logger.info({ after: failures }, 'audit sealer recovered');
        failures = 0;
      } catch (err) {
        if (failures++ % 50 === 0) opts.logger.warn({ err }, 'audit sealer failed; retrying');
      }
      if (!stopped && !sealed) await pause(failures ? Math.min(30_000, interval * 2 ** Math.min(failures, 8)) : interval);
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
