import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Role } from '../../kit/roles';
import type { Outbox, QueuedMessage } from '../outbox';

export interface NotifyInput {
  codAzienda: string;
  /** Explicit recipients (cod_utente); combined with `role` when both are given. */
  recipients?: string[];
  /** Every active user of the tenant holding one of these roles. */
  role?: Role | Role[];
  tipo: string;
  titolo: string;
  messaggio?: string;
  link?: string | null;
  entity?: { type: string; id: string } | null;
  /**
   * Idempotency key: the same key for the same user is stored once (partial unique index),
   * so a retried activity or a re-run command never notifies twice.
   */
  dedupKey?: string | null;
  /**
   * Confidential (an SOS: art. 39 d.lgs. 231/2007): the e-mail copy says only that a confidential
   * notification waits, with no title, text, link or entity, because the outbox's list is read by
   * administrators who may not know that a report exists.
   */
  riservata?: boolean;
}

export interface NotifyResult {
  /** Users that received a new notification (a duplicate is not counted). */
  created: number;
  recipients: string[];
  /** The e-mails queued with the new notifications: hand them to the delivery after the commit. */
  messages: QueuedMessage[];
}

/** Resolves the recipients inside the tenant (RLS): a user of another tenant cannot be addressed. */
async function resolveRecipients(trx: Knex.Transaction, input: NotifyInput): Promise<{ cod_utente: string; email: string | null }[]> {
  const ids = [...new Set(input.recipients ?? [])].filter((v) => /^[0-9a-f-]{36}$/i.test(v));
  const roles = input.role === undefined ? [] : Array.isArray(input.role) ? input.role : [input.role];
  if (!ids.length && !roles.length) return [];
  return trx('utenti')
    .where({ cod_azienda: input.codAzienda, attivo: true })
    .andWhere((q) => {
      if (ids.length) q.orWhereIn('cod_utente', ids);
      if (roles.length) q.orWhereRaw('ruoli && ?::text[]', [roles]);
    })
    .orderBy('cod_utente')
    .select('cod_utente', 'email');
}

/** Only in-app paths: a notification must never carry a javascript: or off-site link. */
const safeLink = (link: string | null | undefined) => (link && /^\/(?![/\\])/.test(link) ? link : null);

/** The e-mail that goes with a notification: its title, its text and the way back to the page. */
function notificationMail(input: NotifyInput, link: string | null, outbox: Outbox) {
  if (input.riservata) {
    return { subject: 'Notifica riservata', text: 'Hai una notifica riservata sulla piattaforma di compliance: accedi e aprila tra le notifiche in alto nella pagina.' };
  }
  const parts = [input.messaggio ?? '', link ? `Apri: ${outbox.url(link)}` : '',
    'Questa è una notifica automatica della piattaforma di compliance; la trovi anche tra le notifiche in alto nella pagina.'];
  return { subject: input.titolo, text: parts.filter(Boolean).join('\n\n') };
}

/**
 * Creates one notification per recipient in the caller's transaction (tenant-scoped), and
 * queues its e-mail in the same transaction: both exist exactly when the cause committed.
 * Notifications derive from changes that are themselves audited, so they add no audit event.
 */
export async function notify(trx: Knex.Transaction, input: NotifyInput, outbox: Outbox): Promise<NotifyResult> {
  const users = await resolveRecipients(trx, input);
  const recipients = users.map((u) => u.cod_utente);
  if (!recipients.length) return { created: 0, recipients, messages: [] };
  const link = safeLink(input.link);
  const rows = users.map((u) => ({
    id: randomUUID(),
    cod_azienda: input.codAzienda,
    cod_utente: u.cod_utente,
    tipo: input.tipo,
    titolo: input.titolo,
    messaggio: input.messaggio ?? '',
    link,
    entity_type: input.entity?.type ?? null,
    entity_id: input.entity?.id ?? null,
    dedup_key: input.dedupKey ?? null,
  }));
  const inserted: { id: string; cod_utente: string }[] = await trx('notifications').insert(rows).onConflict().ignore().returning(['id', 'cod_utente']);
  const mail = notificationMail(input, link, outbox);
  const messages: QueuedMessage[] = [];
  for (const n of inserted) {
    const email = users.find((u) => u.cod_utente === n.cod_utente)?.email;
    if (!email) continue;
    const m = await outbox.enqueue(trx, {
      codAzienda: input.codAzienda, kind: 'notification', to: email, ...mail, entity: input.riservata ? null : input.entity ?? null, dedupKey: `notification:${n.id}`,
    });
    if (m) messages.push(m);
  }
  return { created: inserted.length, recipients, messages };
}
