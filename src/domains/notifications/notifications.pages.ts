import { z } from 'zod';
import { notFound } from '../../http/errors';
import { isHtmx, redirectWithFlash, render, type Ctx } from '../../http/render';
import type { RegisterRoutes } from '../../kit/area';
import { asRecipient, recipientOf } from './notifications.recipient';
import { listNotifications, markAllRead, markRead, unreadCount } from './notifications.repo';
import { staff } from '../../kit/access';
import { MAX_OFFSET } from '../../kit/list';

const PAGE_SIZE = 20;
const pageQuery = z.object({
  stato: z.enum(['tutte', 'non-lette']).catch('tutte'),
  offset: z.coerce.number().int().min(0).max(MAX_OFFSET).catch(0),
  cursor: z.string().max(4_000).optional().catch(undefined),
});

/** Only a local path may be a redirect target (no open redirect through `next`). */
const localPath = (v: unknown, fallback: string) => (typeof v === 'string' && /^\/(?![/\\])/.test(v) ? v : fallback);

/**
 * Pages of the notification centre. The header dropdown is an htmx fragment; every action
 * also works as a plain form post (post/redirect/get) for browsers without JavaScript.
 */
export const registerNotificationPages: RegisterRoutes = (router, { deps, views }) => {
  const dropdown = async (ctx: Ctx, open = false) => {
    const r = recipientOf(ctx);
    const data = r
      ? await asRecipient(deps, r, ctx.state.user!.username, async (trx) => ({
        count: await unreadCount(trx, r),
        items: (await listNotifications(trx, r, { limit: 5 })).items,
      }))
      : { count: 0, items: [] };
    ctx.vary('HX-Request');
    ctx.set('Cache-Control', 'no-store');
    render(ctx, views, 'partials/notification-dropdown.njk', { ...data, open });
  };

  router.get('/partials/notification-dropdown', staff(), async (ctx) => {
    // The header link is a plain link too: without htmx it leads to the full list.
    if (!isHtmx(ctx)) return ctx.redirect('/notifiche');
    await dropdown(ctx);
  });

  router.get('/notifiche', staff(), async (ctx) => {
    const q = pageQuery.parse(ctx.query);
    const r = recipientOf(ctx);
    const result = r
      ? await asRecipient(deps, r, ctx.state.user!.username, (trx) =>
        listNotifications(trx, r, { unread: q.stato === 'non-lette' ? true : undefined, limit: PAGE_SIZE, offset: q.offset, cursor: q.cursor || undefined }))
      : { items: [], total: 0, total_exact: true, limit: PAGE_SIZE, offset: 0, next_cursor: null, prev_cursor: null };
    render(ctx, views, 'notifications/elenco.njk', {
      title: 'Notifiche', result, stato: q.stato, filterQuery: { stato: q.stato === 'tutte' ? '' : q.stato },
    }, { fragment: 'notifications/_elenco_tabella.njk' });
  });

  router.post('/notifiche/:id/letta', staff(), async (ctx) => {
    const r = recipientOf(ctx);
    const row = r ? await asRecipient(deps, r, ctx.state.user!.username, (trx) => markRead(trx, r, ctx.params.id!)) : undefined;
    if (!row) throw notFound('Notifica');
    // After an action inside the open dropdown, it stays open.
    if (isHtmx(ctx)) return dropdown(ctx, true);
    const body = (ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {};
    redirectWithFlash(ctx, localPath(body.next, '/notifiche'), 'success', 'Notifica segnata come letta');
  });

  router.post('/notifiche/lette', staff(), async (ctx) => {
    const r = recipientOf(ctx);
    const n = r ? await asRecipient(deps, r, ctx.state.user!.username, (trx) => markAllRead(trx, r)) : 0;
    if (isHtmx(ctx)) return dropdown(ctx, true);
    redirectWithFlash(ctx, '/notifiche', 'success', n ? `${n} notifiche segnate come lette` : 'Nessuna notifica da segnare');
  });
};
