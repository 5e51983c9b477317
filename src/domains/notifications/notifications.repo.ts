import type { Knex } from 'knex';
import { z } from 'zod';

import { listParamsShape, listResponse, runList, tenantScope } from '../../kit/list';
import { NOTIFICATION_COLUMNS, notificationsList } from './notifications.list';

export { NOTIFICATION_COLUMNS };

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
  ...listParamsShape(notificationsList),
});
export type ListNotificationsQuery = z.infer<typeof listNotificationsQuery>;

export const notificationListResponse = listResponse(notificationSchema);

/** The owner of a notification: always both the tenant and the user, never just the id. */
export interface Recipient { codAzienda: string; codUtente: string }

const own = (trx: Knex.Transaction, r: Recipient) => trx('notifications').where({ cod_azienda: r.codAzienda, cod_utente: r.codUtente });

/** The recipient's notifications (notificationsList): tenant and user both in the query, always. */
export const listNotifications = (trx: Knex.Transaction, r: Recipient, q: Partial<ListNotificationsQuery>) =>
  runList<NotificationRow>(trx, notificationsList, tenantScope(r.codAzienda), { ...listNotificationsQuery.parse({}), ...q, cod_utente: r.codUtente } as ListNotificationsQuery);

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
