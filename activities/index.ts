import type { ActivityDeps } from './deps';
import { createCaseActivities } from './case/case.activities';
import { createNotificationActivities } from './notifications/notification.activities';
import { createScreeningImportActivities } from './screening/screening-import.activities';
import { createScreeningBatchActivities } from './screening/screening-batch.activities';
import { createScreeningRescreenActivities } from './screening/screening-rescreen.activities';
import { createEsignActivities } from './esign/esign.activities';
import { createOnboardingActivities } from './onboarding/onboarding.activities';

export function createActivities(deps: ActivityDeps) {
  return {
    ...createCaseActivities(deps),
    ...createNotificationActivities(deps),
    ...createScreeningImportActivities(deps),
    ...createScreeningBatchActivities(deps),
    ...createScreeningRescreenActivities(deps),
    ...createEsignActivities(deps),
    ...createOnboardingActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
