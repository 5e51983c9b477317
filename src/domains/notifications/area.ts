import { createNotificationActivities } from '../../../activities/notifications/notification.activities';
import { defineArea } from '../../kit/area';
import { registerNotificationRoutes } from './notifications.routes';

/** In-app notifications of staff users. */
export const notificationsArea = defineArea({
  name: 'notifications',
  label: 'Notifiche',
  routes: [registerNotificationRoutes],
  activities: createNotificationActivities,
});
