import type { ActivityDeps } from './deps';
import { withDataErrorsNonRetryable } from './lib/data-errors';
import { createCaseActivities } from './case/case.activities';
import { createNotificationActivities } from './notifications/notification.activities';
import { createScreeningImportActivities } from './screening/screening-import.activities';
import { createScreeningBatchActivities } from './screening/screening-batch.activities';
import { createEsignActivities } from './esign/esign.activities';
import { createOnboardingActivities } from './onboarding/onboarding.activities';

/** Every activity of the worker; a database data error never makes one retry (see lib/data-errors.ts). */
export function createActivities(deps: ActivityDeps) {
  return withDataErrorsNonRetryable({
    ...createCaseActivities(deps),
    ...createNotificationActivities(deps),
    ...createScreeningImportActivities(deps),
    ...createScreeningBatchActivities(deps),
    ...createEsignActivities(deps),
    ...createOnboardingActivities(deps),
  });
}

export type Activities = ReturnType<typeof createActivities>;
