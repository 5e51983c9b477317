import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { canonicalJson } from '../../lib/canonical-json';
import type { AuditAction } from './audit.labels';

export const PLATFORM_CHAIN = '_platform';
export const GENESIS_HASH = '0'.repeat(64);

/**
 * Events in the order of their chain: sealed ones by seq, then the ones still waiting for
 * their seal (the newest) in the order they were written.
 */
export const CHAIN_ORDER = 'seq asc nulls last, id asc';
export const CHAIN_ORDER_DESC = 'seq desc nulls first, id desc';

export interface AuditInput {
  codAzienda: string | null;
  actor: string;
  /** Only actions with an Italian label (audit.labels.ts) can be written. */
  action: AuditAction;
  entityType: string;
  entityId: string;
  data?: Record<string, unknown>;
}

/** An event; seq, prev_hash and hash stay null until the sealer gives it its place in the chain. */
export interface AuditRow {
  id: number;
  cod_azienda: string;
  seq: number | null;
  occurred_at: Date;
  actor: string;
  action: string;
  entity_type: string;
  entity_id: string;
  data: Record<string, unknown>;
  prev_hash: string | null;
  hash: string | null;
}

export type SealedAuditRow = AuditRow & { seq: number; prev_hash: string; hash: string };

export function hashEvent(e: Omit<SealedAuditRow, 'id' | 'hash'>): string {
  const body = canonicalJson({
    cod_azienda: e.cod_azienda,
    seq: e.seq,
    occurred_at: new Date(e.occurred_at).toISOString(),
    actor: e.actor,
    action: e.action,
    entity_type: e.entity_type,
    entity_id: e.entity_id,
    data: e.data,
  });
  return createHash('sha256').update(e.prev_hash).update('\n').update(body).digest('hex');
}

export const chainOf = (codAzienda: string | null) => codAzienda ?? PLATFORM_CHAIN;

/**
 * Records one event inside the caller's transaction, so the event exists if and only if the
 * change it records was committed. No chain lock is taken: writers of one tenant never wait
 * for each other here. The sealer (audit.sealer.ts) chains the event shortly after commit.
 */
export async function appendAudit(trx: Knex.Transaction, input: AuditInput): Promise<AuditRow> {
  const [saved] = await trx('audit_events').insert({
    cod_azienda: chainOf(input.codAzienda),
    // Millisecond precision: what PostgreSQL stores must hash to the same value when read back.
    occurred_at: new Date(Date.now()),
    actor: input.actor,
    action: input.action,
    entity_type: input.entityType,
    entity_id: input.entityId,
    data: input.data ?? {},
  }).returning(['id', 'cod_azienda', 'seq', 'occurred_at', 'actor', 'action', 'entity_type', 'entity_id', 'data', 'prev_hash', 'hash']);
  return saved as AuditRow;
}

/** 7 parameters a row: well under PostgreSQL's 65,535 bind parameters per statement. */
const AUDIT_ROWS_PER_INSERT = 5_000;

/**
 * Records many events inside the caller's transaction as multi-row inserts (a batch of thousands
 * in a handful of statements). The rows are inserted in the order given, so their ids (the order
 * the sealer chains events of one commit in) follow it, exactly as one appendAudit after the other
 * would; they share one occurred_at.
 */
export async function appendAudits(trx: Knex.Transaction, inputs: readonly AuditInput[]): Promise<number> {
  const occurredAt = new Date(Date.now());
  const rows = inputs.map((input) => ({
    cod_azienda: chainOf(input.codAzienda), occurred_at: occurredAt, actor: input.actor, action: input.action,
    entity_type: input.entityType, entity_id: input.entityId, data: input.data ?? {},
  }));
  for (let i = 0; i < rows.length; i += AUDIT_ROWS_PER_INSERT) await trx('audit_events').insert(rows.slice(i, i + AUDIT_ROWS_PER_INSERT));
  return rows.length;
}

/** An event still unsealed this long after it was written means the sealer is not doing its work. */
export const UNSEALED_GRACE_MS = 60_000;

export interface ChainVerification {
  cod_azienda: string;
  ok: boolean;
  /** Sealed events whose links hold, in seq order. */
  checked: number;
  /** Events written but not sealed yet (normally those of the last moments). */
  unsealed: number;
  firstBroken?: { seq: number; id: number; reason: 'hash_mismatch' | 'prev_hash_mismatch' | 'seq_gap' };
  /** The oldest of the events unsealed for longer than the grace period, and how many there are. */
  staleUnsealed?: { id: number; occurred_at: Date; count: number };
}

/**
 * Walks the sealed chain in order and reports the first event whose link does not hold, and
 * events left unsealed for longer than graceMs (a sealer that stopped is a problem too).
 */
export async function verifyAuditChain(trx: Knex.Transaction | Knex, codAzienda: string, graceMs = UNSEALED_GRACE_MS): Promise<ChainVerification> {
  const staleBefore = new Date(Date.now() - graceMs);
  const pending = await trx('audit_events').where({ cod_azienda: codAzienda }).whereNull('seq')
    .select(trx.raw('count(*)::int as n'), trx.raw('(count(*) filter (where occurred_at < ?))::int as stale', [staleBefore]))
    .first() as { n: number; stale: number };
  const oldest = pending.stale > 0
    ? await trx('audit_events').where({ cod_azienda: codAzienda }).whereNull('seq').where('occurred_at', '<', staleBefore).orderBy('id').first('id', 'occurred_at') as { id: number; occurred_at: Date }
    : undefined;
  const base = { cod_azienda: codAzienda, unsealed: pending.n, ...(oldest ? { staleUnsealed: { ...oldest, count: pending.stale } } : {}) };
  let prevHash = GENESIS_HASH;
  let expectedSeq = 1;
  let checked = 0;
  const batch = 5000;
  for (let after = 0; ; ) {
    const rows = (await trx('audit_events')
      .where({ cod_azienda: codAzienda })
      .andWhere('seq', '>', after)
      .orderBy('seq')
      .limit(batch)) as SealedAuditRow[];
    for (const r of rows) {
      const fail = (reason: NonNullable<ChainVerification['firstBroken']>['reason']) => ({
        ...base, ok: false, checked, firstBroken: { seq: r.seq, id: r.id, reason },
      });
      if (r.seq !== expectedSeq) return fail('seq_gap');
      if (r.prev_hash !== prevHash) return fail('prev_hash_mismatch');
      if (hashEvent(r) !== r.hash) return fail('hash_mismatch');
      prevHash = r.hash;
      expectedSeq++;
      checked++;
    }
    if (rows.length < batch) break;
    after = rows[rows.length - 1]!.seq;
  }
  return { ...base, ok: !oldest, checked };
}
