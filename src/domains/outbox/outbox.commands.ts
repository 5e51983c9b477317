import type { Knex } from 'knex';
import { conflict, notFound } from '../../http/errors';
import { appendAudit } from '../audit';
import type { QueuedMessage } from './outbox.enqueue';
import { toView } from './outbox.repo';
import { isUuid } from '../../kit/ids';

/**
 * "Riprova": a failed message goes back to pending and gets a new delivery (the caller
 * dispatches it after the commit). Only failed messages: a pending one is being delivered,
 * a sent one is never sent again.
 */
export async function retryMessage(trx: Knex.Transaction, id: string, actor: string) {
  if (!isUuid(id)) throw notFound('Messaggio', 'm');
  const row = await trx('outbox_messages').where({ id }).forUpdate().first();
  if (!row) throw notFound('Messaggio', 'm');
  if (row.status !== 'failed') {
    throw conflict('MESSAGE_NOT_FAILED', row.status === 'sent' ? 'Il messaggio è già stato inviato' : 'Il messaggio è già in consegna', { message_status: row.status });
  }
  const now = new Date();
  const [updated] = await trx('outbox_messages').where({ id }).update({ status: 'pending', failed_at: null, updated_at: now }, '*');
  await appendAudit(trx, {
    codAzienda: row.cod_azienda, actor, action: 'outbox.retry', entityType: 'outbox_message', entityId: id,
    data: { kind: row.kind, attempts: row.attempts, last_error: row.last_error },
  });
  const queued: QueuedMessage = { id, codAzienda: row.cod_azienda };
  return { message: toView(updated), queued };
}
