import { defineArea } from '../../kit/area';
import { registerAuditRoutes } from './audit.routes';
import { auditEventsList } from './audit.list';

/** The hash-chained audit trail: events, filters, verification. */
export const auditArea = defineArea({
  name: 'audit',
  label: 'Registro audit',
  routes: [registerAuditRoutes],
  lists: [auditEventsList],
  navigation: [{ section: 'Organizzazione', label: 'Registro audit', href: '/audit/eventi', roles: ['superadmin', 'admin', 'co', 'auditor'], order: 40 }],
});
