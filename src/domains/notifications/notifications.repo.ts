import type { Knex } from 'knex';
import { z } from 'zod';

export const NOTIFICATION_COLUMNS = ['id', 'tipo', 'titolo', 'messaggio', 'link', 'entity_type', 'entity_id', 'read_at', 'created_at'] as const;

/** The JSON shape (dates serialised as ISO strings). */
export const notificationSchema = z.object({
  id: z.uuid(),
  tipo: z.string(),
  titolo: z.string(),
  messaggio: z.string(),
  link: z.string().nullable(),
  entity_type: z.string().nullable(),
  entity_id: z.string().nullable(),
  read_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
});

export interface NotificationRow {
  id: string;
  tipo: string;
  titolo: string;
  messaggio: string;
  link: string | null;
  entity_type: string | null;
  entity_id: string | null;
  read_at: Date | null;
  created_at: Date;
}

const booleanParam = z.preprocess((v) => (v === 'true' || v === '1' || v === true ? true : v === 'false' || v === '0' || v === false ? false : v), z.boolean());

export const listNotificationsQuery = z.object({
  unread: booleanParam.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});
export type ListNotificationsQuery = z.infer<typeof listNotificationsQuery>;

export const notificationListResponse = z.object({
  items: z.array(notificationSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});

/** The owner of a notification: always both the tenant and the user, never just the id. */
export interface Recipient { codAzienda: string; codUtente: string }

const own = (trx: Knex.Transaction, r: Recipient) => trx('notifications').where({ cod_azienda: r.codAzienda, cod_utente: r.codUtente });

export async function listNotifications(trx: Knex.Transaction, r: Recipient, q: ListNotificationsQuery) {
  const base = own(trx, r);
  if (q.unread === true) base.whereNull('read_at');
  if (q.unread === false) base.whereNotNull('read_at');
  const [{ total }] = await base.clone().count<{ total: number }[]>({ total: '*' });
  const items = (await base.clone()
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(q.limit).offset(q.offset)
    .select(...NOTIFICATION_COLUMNS)) as NotificationRow[];
  return { items, total: Number(total), limit: q.limit, offset: q.offset };
}

export async function unreadCount(trx: Knex.Transaction, r: Recipient): Promise<number> {
  const [{ count }] = await own(trx, r).whereNull('read_at').count<{ count: number }[]>({ count: '*' });
  return Number(count);
}

/**
 * Marks the user's notification read; a second call keeps the first read time.
 * Undefined when the notification is not the user's (the caller answers 404).
 */
export async function markRead(trx: Knex.Transaction, r: Recipient, id: string): Promise<NotificationRow | undefined> {
  if (!z.uuid().safeParse(id).success) return undefined;
  const [row] = await own(trx, r).andWhere({ id })
    .update({ read_at: trx.raw('coalesce(read_at, now())') })
    .returning([...NOTIFICATION_COLUMNS]);
  return row as NotificationRow | undefined;
}

export async function markAllRead(trx: Knex.Transaction, r: Recipient): Promise<number> {
  return own(trx, r).whereNull('read_at').update({ read_at: trx.raw('now()') });
}
