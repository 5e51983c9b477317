import { defineArea } from '../../kit/area';
import { STAFF_READ } from '../../kit/roles';
import { registerAlertRoutes } from './alerts/alerts.routes';
import { registerAlertNewPage } from './alerts/alerts.new-page';
import { registerAlertPages } from './alerts/alerts.pages';
import { registerTransactionPages } from './transactions/transactions.pages';
import { alertsListWithExport } from './alerts/alerts.export';
import { alertsHome } from './alerts/alerts.home';
import { registerRuleRoutes } from './rules/rules.routes';
import { registerRulePages } from './rules/rules.pages';
import { monitoringRulesList } from './rules/rules.list';
import { withEvaluation } from './evaluation/evaluation.area';
import { withEngine } from './sync/engine.area';
import { registerTemplateRoutes } from './templates/templates.routes';
import { registerTemplatePages } from './templates/templates.pages';
import { withSeed } from './seed/seed.area';

/**
 * Transaction monitoring and KYT (issue 23, docs/monitoring.md): rules as versioned data, alerts
 * as a table process deduplicated per customer, rule and window, escalated into cases.
 */
export const monitoringArea = withSeed(withEngine(withEvaluation(defineArea({
  name: 'monitoring',
  label: 'Monitoraggio',
  // /alert/nuovo before /alert/:id.
  routes: [registerAlertRoutes, registerRuleRoutes, registerAlertNewPage, registerAlertPages, registerTransactionPages, registerRulePages, registerTemplateRoutes, registerTemplatePages],
  lists: [alertsListWithExport, monitoringRulesList],
  navigation: [
    { section: 'Monitoraggio', label: 'Alert', href: '/alert', roles: STAFF_READ, order: 10 },
    { section: 'Monitoraggio', label: 'KYT', href: '/kyt/alerts', roles: STAFF_READ, order: 20 },
    { section: 'Monitoraggio', label: 'Transazioni', href: '/transazioni', roles: STAFF_READ, order: 30 },
    { section: 'Monitoraggio', label: 'Regole', href: '/monitoraggio/regole', roles: STAFF_READ, order: 35 },
  ],
  home: alertsHome,
}))));
