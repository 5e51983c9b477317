import type { Knex } from 'knex';
import { z } from 'zod';
import type { AuditRow, ChainVerification } from './audit.chain';
import { listParamsShape, listResponse, runList, tenantScope } from '../../kit/list';
import { auditEventsList } from './audit.list';

export { AUDIT_COLUMNS } from './audit.list';

const text = z.string().trim().min(1).max(200);

/** Filters of the audit query; from/to are ISO 8601 date-times with an offset (or Z). */
export const auditEventsQuery = z.object({
  actor: text.optional(),
  entity_type: text.optional(),
  entity_id: text.optional(),
  action: text.optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  /** Superadmin only: the chain to read ('_platform' for events of no tenant). */
  cod_azienda: text.optional(),
  ...listParamsShape(auditEventsList),
}).refine((q) => !q.from || !q.to || new Date(q.from) <= new Date(q.to), { message: 'La data iniziale deve precedere la data finale', path: ['to'] });
export type AuditEventsQuery = z.infer<typeof auditEventsQuery>;

export const auditEventSchema = z.object({
  id: z.number().int(),
  cod_azienda: z.string(),
  /** Place in the tenant's chain; null (with prev_hash and hash) for an event not sealed yet. */
  seq: z.number().int().nullable(),
  occurred_at: z.iso.datetime(),
  actor: z.string(),
  action: z.string(),
  entity_type: z.string(),
  entity_id: z.string(),
  data: z.record(z.string(), z.unknown()),
  prev_hash: z.string().nullable(),
  hash: z.string().nullable(),
});

export const auditEventListResponse = listResponse(auditEventSchema);

export const auditVerifyQuery = z.object({ cod_azienda: text.optional() });

export const auditVerifyResponse = z.object({
  cod_azienda: z.string(),
  ok: z.boolean(),
  checked: z.number().int(),
  /** Events written but not sealed into the chain yet. */
  unsealed: z.number().int(),
  /** seq of the first event whose link does not hold; null when the chain is intact. */
  firstBroken: z.number().int().nullable(),
  /** 'unsealed': events left unsealed for longer than the grace period (the sealer is not running). */
  reason: z.enum(['hash_mismatch', 'prev_hash_mismatch', 'seq_gap', 'unsealed']).nullable(),
  broken_event_id: z.number().int().nullable(),
  /** How many events are unsealed past the grace period. */
  stale_unsealed: z.number().int(),
  verified_at: z.iso.datetime(),
});

export type AuditFilters = Omit<AuditEventsQuery, 'cod_azienda'>;

/**
 * Events of one chain in chain order, newest first (auditEventsList). The chain is the list's tenant:
 * the explicit cod_azienda predicate keeps the index in use; RLS (the transaction's tenant) is what
 * guarantees no other tenant's row is read.
 */
export const listAuditEvents = (trx: Knex.Transaction, chain: string, f: AuditFilters) =>
  runList<AuditRow>(trx, auditEventsList, tenantScope(chain), f);

/** Distinct values for the page's filter suggestions (bounded: a chain may be long). */
export async function auditFacets(trx: Knex.Transaction, chain: string) {
  const pick = async (col: 'action' | 'entity_type') =>
    ((await trx('audit_events').where({ cod_azienda: chain }).distinct(col).orderBy(col).limit(200)) as Record<string, string>[]).map((r) => r[col]!);
  return { actions: await pick('action'), entityTypes: await pick('entity_type') };
}

export function verificationReport(v: ChainVerification) {
  return {
    cod_azienda: v.cod_azienda,
    ok: v.ok,
    checked: v.checked,
    unsealed: v.unsealed,
    firstBroken: v.firstBroken?.seq ?? null,
    reason: v.firstBroken?.reason ?? (v.staleUnsealed ? 'unsealed' as const : null),
    broken_event_id: v.firstBroken?.id ?? v.staleUnsealed?.id ?? null,
    stale_unsealed: v.staleUnsealed?.count ?? 0,
    verified_at: new Date().toISOString(),
  };
}
