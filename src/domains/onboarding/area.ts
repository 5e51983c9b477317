import { fileURLToPath } from 'node:url';
import { createOnboardingActivities } from '../../../activities/onboarding/onboarding.activities';
import { defineArea } from '../../kit/area';
import { onboardingHome } from './onboarding.home';
import { STAFF_READ } from '../../kit/roles';
import { registerOnboardingAdminPages } from './onboarding-admin.pages';
import { registerOnboardingAdminRoutes } from './onboarding-admin.routes';
import { onboardingCasesList } from './onboarding-admin.list';
import { registerOnboardingPages } from './onboarding.pages';
import { registerOnboardingRoutes } from './onboarding.routes';

/** Onboarding without an account: the applicant's wizard and API, the staff review. */
export const onboardingArea = defineArea({
  name: 'onboarding',
  label: 'Onboarding',
  routes: [registerOnboardingRoutes, registerOnboardingAdminRoutes, registerOnboardingAdminPages, registerOnboardingPages],
  activities: createOnboardingActivities,
  workflowModules: [fileURLToPath(new URL('../../../workflows/onboarding/onboarding.workflow.ts', import.meta.url))],
  lists: [onboardingCasesList],
  navigation: [{ section: 'Clienti', label: 'Onboarding', href: '/admin/onboarding/cases', roles: STAFF_READ, order: 20 }],
  home: onboardingHome,
});
