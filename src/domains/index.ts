import type Router from '@koa/router';
import type { AppServices } from '../app';
import type { AppState } from '../http/context';
import { registerAuthRoutes } from './auth/auth.routes';
import { registerAdminRoutes } from './admin/admin.routes';
import { registerOrganizzazionePages } from './admin/organizzazione.pages';
import { registerAuditRoutes } from './audit/audit.routes';
import { registerNotificationRoutes } from './notifications/notifications.routes';
import { registerCaseRoutes } from './cases/cases.routes';
import { registerCasePages } from './cases/cases.pages';
import { registerSystemRoutes } from './system/system.routes';
import { registerScreeningRoutes } from './screening/screening.routes';
import { registerScreeningPages } from './screening/screening.pages';
import { registerEsignRoutes } from './esign/esign.routes';
import { registerEsignPages } from './esign/esign.pages';
import { registerOnboardingRoutes } from './onboarding/onboarding.routes';
import { registerOnboardingAdminRoutes } from './onboarding/onboarding-admin.routes';
import { registerOnboardingAdminPages } from './onboarding/onboarding-admin.pages';
import { registerOnboardingPages } from './onboarding/onboarding.pages';
import { registerOutboxRoutes } from './outbox/outbox.routes';

export type RegisterRoutes = (router: Router<AppState>, services: AppServices) => void;

/** Adding an area adds one line here. */
export const domains: RegisterRoutes[] = [
  registerSystemRoutes,
  registerAuthRoutes,
  registerAdminRoutes,
  // Before the tenant pages: /organizzazione/messaggi is not a tenant's /organizzazione/:cod.
  registerOutboxRoutes,
  registerOrganizzazionePages,
  registerAuditRoutes,
  registerNotificationRoutes,
  registerCaseRoutes,
  registerCasePages,
  registerScreeningRoutes,
  registerScreeningPages,
  registerEsignRoutes,
  registerEsignPages,
  registerOnboardingRoutes,
  registerOnboardingAdminRoutes,
  registerOnboardingAdminPages,
  registerOnboardingPages,
];
