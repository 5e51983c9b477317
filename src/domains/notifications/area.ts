import { createNotificationActivities } from '../../../activities/notifications/notification.activities';
import { defineArea } from '../../kit/area';
import { notificationsHome } from './notifications.home';
import { registerNotificationRoutes } from './notifications.routes';
import { notificationsList } from './notifications.list';

/** In-app notifications of staff users. */
export const notificationsArea = defineArea({
  name: 'notifications',
  label: 'Notifiche',
  routes: [registerNotificationRoutes],
  activities: createNotificationActivities,
  lists: [notificationsList],
  home: notificationsHome,
});
