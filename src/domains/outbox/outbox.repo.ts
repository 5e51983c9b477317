import type { Knex } from 'knex';
import type { OutboxListQuery, OutboxMessageView } from './outbox.schemas';
import { runList, type ListScope } from '../../kit/list';
import { outboxList } from './outbox.list';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export const toView = (r: Record<string, any>): OutboxMessageView => ({
  id: r.id, cod_azienda: r.cod_azienda, kind: r.kind, recipient: r.recipient, subject: r.subject, status: r.status, attempts: r.attempts,
  last_error: r.last_error, entity_type: r.entity_type, entity_id: r.entity_id, created_at: iso(r.created_at)!,
  last_attempt_at: iso(r.last_attempt_at), sent_at: iso(r.sent_at), failed_at: iso(r.failed_at),
});

/** Newest first (outboxList); the scope (adminListScope) matches the transaction's role. */
export async function listOutbox(trx: Knex.Transaction, scope: ListScope, q: OutboxListQuery) {
  const page = await runList(trx, outboxList, scope, q);
  return { ...page, items: page.items.map(toView) };
}
