import type { Knex } from 'knex';
import type { OutboxListQuery, OutboxMessageView } from './outbox.schemas';

const COLUMNS = ['id', 'cod_azienda', 'kind', 'recipient', 'subject', 'status', 'attempts', 'last_error', 'entity_type', 'entity_id',
  'created_at', 'last_attempt_at', 'sent_at', 'failed_at'] as const;
const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export const toView = (r: Record<string, any>): OutboxMessageView => ({
  id: r.id, cod_azienda: r.cod_azienda, kind: r.kind, recipient: r.recipient, subject: r.subject, status: r.status, attempts: r.attempts,
  last_error: r.last_error, entity_type: r.entity_type, entity_id: r.entity_id, created_at: iso(r.created_at)!,
  last_attempt_at: iso(r.last_attempt_at), sent_at: iso(r.sent_at), failed_at: iso(r.failed_at),
});

/** Newest first (index outbox_messages_list); row-level security decides which tenants are visible. */
export async function listOutbox(trx: Knex.Transaction, q: OutboxListQuery) {
  const base = trx('outbox_messages').modify((b) => {
    if (q.status) b.where('status', q.status);
    if (q.kind) b.where('kind', q.kind);
    if (q.cod_azienda) b.where('cod_azienda', q.cod_azienda);
    if (q.q) b.where((w) => w.whereILike('recipient', like(q.q!)).orWhereILike('subject', like(q.q!)));
  });
  const [{ count }] = await base.clone().count<{ count: number }[]>({ count: '*' });
  const rows = await base.clone().select([...COLUMNS]).orderBy('created_at', 'desc').orderBy('id').limit(q.limit).offset(q.offset);
  return { items: rows.map(toView), total: Number(count), limit: q.limit, offset: q.offset };
}
