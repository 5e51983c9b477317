import type { ActivityDeps } from '../deps';

export function createCaseActivities(_deps: ActivityDeps) {
  return {};
}
