import type { ActivityDeps } from './deps';
import { createCaseActivities } from './case/case.activities';
import { createNotificationActivities } from './notifications/notification.activities';
import { createScreeningImportActivities } from './screening/screening-import.activities';
import { createScreeningBatchActivities } from './screening/screening-batch.activities';

export function createActivities(deps: ActivityDeps) {
  return {
    ...createCaseActivities(deps),
    ...createNotificationActivities(deps),
    ...createScreeningImportActivities(deps),
    ...createScreeningBatchActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
