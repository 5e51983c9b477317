import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { canonicalJson } from '../../lib/canonical-json';

export const PLATFORM_CHAIN = '_platform';
export const GENESIS_HASH = '0'.repeat(64);

export interface AuditInput {
  codAzienda: string | null;
  actor: string;
  action: string;
  entityType: string;
  entityId: string;
  data?: Record<string, unknown>;
}

export interface AuditRow {
  id: number;
  cod_azienda: string;
  seq: number;
  occurred_at: Date;
  actor: string;
  action: string;
  entity_type: string;
  entity_id: string;
  data: Record<string, unknown>;
  prev_hash: string;
  hash: string;
}

export function hashEvent(e: Omit<AuditRow, 'id' | 'hash'>): string {
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

/**
 * Appends one event to its tenant's chain inside the caller's transaction, so the
 * event exists if and only if the change it records was committed. The advisory
 * lock serialises writers of one chain; other tenants are not blocked.
 */
export async function appendAudit(trx: Knex.Transaction, input: AuditInput): Promise<AuditRow> {
  const chain = input.codAzienda ?? PLATFORM_CHAIN;
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`audit:${chain}`]);
  const last = await trx('audit_events').where({ cod_azienda: chain }).orderBy('seq', 'desc').first('seq', 'hash');
  // Millisecond precision: what PostgreSQL stores must hash to the same value when read back.
  const occurredAt = new Date(Math.floor(Date.now()));
  const row = {
    cod_azienda: chain,
    seq: (last?.seq ?? 0) + 1,
    occurred_at: occurredAt,
    actor: input.actor,
    action: input.action,
    entity_type: input.entityType,
    entity_id: input.entityId,
    data: input.data ?? {},
    prev_hash: last?.hash ?? GENESIS_HASH,
  };
  const hash = hashEvent(row);
  const [saved] = await trx('audit_events').insert({ ...row, hash }).returning('*');
  return saved as AuditRow;
}

export interface ChainVerification {
  cod_azienda: string;
  ok: boolean;
  checked: number;
  firstBroken?: { seq: number; id: number; reason: 'hash_mismatch' | 'prev_hash_mismatch' | 'seq_gap' };
}

/** Walks a chain in order and reports the first event whose link does not hold. */
export async function verifyAuditChain(trx: Knex.Transaction | Knex, codAzienda: string): Promise<ChainVerification> {
  let prevHash = GENESIS_HASH;
  let expectedSeq = 1;
  let checked = 0;
  const batch = 2000;
  for (let after = 0; ; ) {
    const rows = (await trx('audit_events')
      .where({ cod_azienda: codAzienda })
      .andWhere('seq', '>', after)
      .orderBy('seq')
      .limit(batch)) as AuditRow[];
    for (const r of rows) {
      const fail = (reason: NonNullable<ChainVerification['firstBroken']>['reason']) => ({
        cod_azienda: codAzienda, ok: false, checked, firstBroken: { seq: r.seq, id: r.id, reason },
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
  return { cod_azienda: codAzienda, ok: true, checked };
}
