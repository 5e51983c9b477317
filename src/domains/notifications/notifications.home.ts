import type { HomeTiles } from '../../kit/home';
import { unreadCount } from './notifications.repo';

/** The user's unread notifications: every staff user has some (or none), in the active tenant. */
export const notificationsHome: HomeTiles = async ({ user, tenant, tx }) => {
  const count = await tx((trx) => unreadCount(trx, { codAzienda: tenant, codUtente: user.id }));
  return [{
    area: 'notifications', kind: 'assigned', label: 'Notifiche non lette', count, tone: count > 0 ? 'azure' : 'secondary',
    href: '/notifiche?stato=non-lette', hint: 'Avvisi per te: assegnazioni, scadenze, esiti', empty: 'Nessuna notifica da leggere',
  }];
};
