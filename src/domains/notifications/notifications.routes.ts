import { z } from 'zod';

import { notFound } from '../../http/errors';
import { ROLES } from '../../kit/roles';
import type { RegisterRoutes } from '../../kit/area';
import { registerNotificationPages } from './notifications.pages';
import { asRecipient, recipientOf } from './notifications.recipient';
import {
  listNotificationsQuery, listNotifications, markRead, notificationListResponse, notificationSchema, unreadCount,
} from './notifications.repo';
import { staff } from '../../kit/access';

const tag = 'Notifiche';

/** Every signed-in user reads their own notifications: the query is always bound to user and tenant. */
export const registerNotificationRoutes: RegisterRoutes = (router, services) => {
  const { deps } = services;
  router.api({
    method: 'GET', path: '/api/notifications', summary: 'Notifiche dell\'utente collegato', tag, access: staff(ROLES),
    query: listNotificationsQuery, response: notificationListResponse,
    handler: async (ctx, { query }) => {
      const r = recipientOf(ctx);
      if (!r) return { items: [], total: 0, total_exact: true, limit: query.limit, offset: query.offset, next_cursor: null, prev_cursor: null };
      return asRecipient(deps, r, ctx.state.user!.username, (trx) => listNotifications(trx, r, query));
    },
  });

  router.api({
    method: 'GET', path: '/api/notifications/unread-count', summary: 'Numero di notifiche non lette', tag, access: staff(ROLES),
    response: z.object({ count: z.number().int() }),
    handler: async (ctx) => {
      const r = recipientOf(ctx);
      return { count: r ? await asRecipient(deps, r, ctx.state.user!.username, (trx) => unreadCount(trx, r)) : 0 };
    },
  });

  router.api({
    method: 'PUT', path: '/api/notifications/:id/read', summary: 'Segna una notifica come letta', tag, access: staff(ROLES),
    response: notificationSchema,
    handler: async (ctx, { params }) => {
      const r = recipientOf(ctx);
      const row = r ? await asRecipient(deps, r, ctx.state.user!.username, (trx) => markRead(trx, r, params.id!)) : undefined;
      // Someone else's notification, or another tenant's, does not exist for this user.
      if (!row) throw notFound('Notifica');
      return row;
    },
  });

  registerNotificationPages(router, services);
};
