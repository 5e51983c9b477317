import type { RegisterRoutes } from '../../../kit/area';
import type { NavEntry } from '../../../kit/nav';
import { STAFF_READ } from '../../../kit/roles';
import { registerFactorPages } from './factors.pages';
import { registerPolicyPages } from './policy.pages';
import { registerRuleFormPages } from './rule-form.pages';
import { registerRuleSetPages } from './rulesets.pages';

/**
 * The risk model's configuration pages: rule sets and rules (/rischio/configurazione), factors
 * (/rischio/fattori) and the policy thresholds (/rischio/policy). The fixed paths are registered
 * before the ones with an id, and the whole set before the area's /rischio/:cod.
 */
export const registerRiskConfigPages: RegisterRoutes = (router, services) => {
  registerRuleSetPages(router, services);
  registerRuleFormPages(router, services);
  registerFactorPages(router, services);
  registerPolicyPages(router, services);
};

export const riskConfigNavigation: NavEntry[] = [
  { section: 'Rischio', label: 'Regole e fattori', href: '/rischio/configurazione', roles: STAFF_READ, order: 50 },
  { section: 'Rischio', label: 'Policy', href: '/rischio/policy', roles: STAFF_READ, order: 60 },
];
