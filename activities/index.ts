import type { ActivityDeps } from './deps';
import { createCaseActivities } from './case/case.activities';
import { createNotificationActivities } from './notifications/notification.activities';
import { createScreeningImportActivities } from './screening/screening-import.activities';
import { createScreeningBatchActivities } from './screening/screening-batch.activities';
import { createEsignActivities } from './esign/esign.activities';
import { createOnboardingActivities } from './onboarding/onboarding.activities';
import { createOutboxActivities } from './outbox/outbox.activities';
import { messaging } from './outbox/messaging';

export function createActivities(deps: ActivityDeps) {
  const m = messaging(deps);
  return {
    ...createCaseActivities(deps, m),
    ...createNotificationActivities(deps, m),
    ...createScreeningImportActivities(deps),
    ...createScreeningBatchActivities(deps),
    ...createEsignActivities(deps, m),
    ...createOnboardingActivities(deps, m),
    ...createOutboxActivities(deps, m),
  };
}

export type Activities = ReturnType<typeof createActivities>;
