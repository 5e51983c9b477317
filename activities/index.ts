import type { ActivityDeps } from './deps';
import { createCaseActivities } from './case/case.activities';
import { createNotificationActivities } from './notifications/notification.activities';

export function createActivities(deps: ActivityDeps) {
  return {
    ...createCaseActivities(deps),
    ...createNotificationActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
