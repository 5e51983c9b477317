import type { ActivityDeps } from './deps';
import { createCaseActivities } from './case/case.activities';
import { createCddReviewActivities } from './cdd/cdd-review.activities';
import { createNotificationActivities } from './notifications/notification.activities';
import { createScreeningImportActivities } from './screening/screening-import.activities';
import { createScreeningBatchActivities } from './screening/screening-batch.activities';
import { createEsignActivities } from './esign/esign.activities';
import { createOnboardingActivities } from './onboarding/onboarding.activities';

export function createActivities(deps: ActivityDeps) {
  return {
    ...createCaseActivities(deps),
    ...createCddReviewActivities(deps),
    ...createNotificationActivities(deps),
    ...createScreeningImportActivities(deps),
    ...createScreeningBatchActivities(deps),
    ...createEsignActivities(deps),
    ...createOnboardingActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
