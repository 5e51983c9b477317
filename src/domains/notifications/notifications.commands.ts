import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Role } from '../../kit/roles';

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
}

export interface NotifyResult {
  /** Users that received a new notification (a duplicate is not counted). */
  created: number;
  recipients: string[];
}

/** Resolves the recipients inside the tenant (RLS): a user of another tenant cannot be addressed. */
async function resolveRecipients(trx: Knex.Transaction, input: NotifyInput): Promise<string[]> {
  const ids = [...new Set(input.recipients ?? [])].filter((v) => /^[0-9a-f-]{36}$/i.test(v));
  const roles = input.role === undefined ? [] : Array.isArray(input.role) ? input.role : [input.role];
  if (!ids.length && !roles.length) return [];
  const rows: { cod_utente: string }[] = await trx('utenti')
    .where({ cod_azienda: input.codAzienda, attivo: true })
    .andWhere((q) => {
      if (ids.length) q.orWhereIn('cod_utente', ids);
      if (roles.length) q.orWhereRaw('ruoli && ?::text[]', [roles]);
    })
    .select('cod_utente');
  return rows.map((r) => r.cod_utente).sort();
}

/** Only in-app paths: a notification must never carry a javascript: or off-site link. */
const safeLink = (link: string | null | undefined) => (link && /^\/(?![/\\])/.test(link) ? link : null);

/**
 * Creates one notification per recipient in the caller's transaction (tenant-scoped).
 * Notifications derive from changes that are themselves audited, so they add no audit event.
 */
export async function notify(trx: Knex.Transaction, input: NotifyInput): Promise<NotifyResult> {
  const recipients = await resolveRecipients(trx, input);
  if (!recipients.length) return { created: 0, recipients };
  const rows = recipients.map((cod_utente) => ({
    id: randomUUID(),
    cod_azienda: input.codAzienda,
    cod_utente,
    tipo: input.tipo,
    titolo: input.titolo,
    messaggio: input.messaggio ?? '',
    link: safeLink(input.link),
    entity_type: input.entity?.type ?? null,
    entity_id: input.entity?.id ?? null,
    dedup_key: input.dedupKey ?? null,
  }));
  const inserted = await trx('notifications').insert(rows).onConflict().ignore().returning('id');
  return { created: inserted.length, recipients };
}
