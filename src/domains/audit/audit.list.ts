import { defineList } from '../../kit/list';

export const AUDIT_COLUMNS = ['id', 'cod_azienda', 'seq', 'occurred_at', 'actor', 'action', 'entity_type', 'entity_id', 'data', 'prev_hash', 'hash'] as const;

/**
 * One chain's events in chain order, newest first: `seq desc nulls first, id desc` (CHAIN_ORDER_DESC),
 * so the unsealed events (seq null, the newest) come before the sealed ones. The tenant is the chain.
 */
export const auditEventsList = defineList<{ actor: string; entity_type: string; entity_id: string; action: string; from: string; to: string }>({
  name: 'audit.events',
  table: 'audit_events',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: () => [...AUDIT_COLUMNS],
  sorts: { seq: [{ column: 'seq', type: 'integer', nullable: true }, { column: 'id', type: 'integer' }] },
  defaultSort: '-seq',
  filters: {
    actor: { apply: (qb, v) => qb.where('actor', v), sample: 'seed-actor-3' },
    entity_type: { apply: (qb, v) => qb.where('entity_type', v), sample: 'case' },
    entity_id: { apply: (qb, v) => qb.where('entity_id', v), sample: 'seed-entity-42' },
    action: { apply: (qb, v) => qb.where('action', v), sample: 'case.opened' },
    from: { apply: (qb, v) => qb.where('occurred_at', '>=', new Date(v)), sample: '2026-01-01T00:00:00Z' },
    to: { apply: (qb, v) => qb.where('occurred_at', '<=', new Date(v)), sample: '2026-01-02T00:00:00Z' },
  },
  limit: { default: 50, max: 200 },
});
