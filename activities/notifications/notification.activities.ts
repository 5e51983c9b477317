import type { ActivityDeps } from '../deps';

export function createNotificationActivities(_deps: ActivityDeps) {
  return {};
}
