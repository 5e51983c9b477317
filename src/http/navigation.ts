import type { Role } from '../domains/auth/roles';

export interface NavItem { label: string; href: string; roles?: Role[] }
export interface NavSection { label: string; icon: string; items: NavItem[] }

const STAFF: Role[] = ['admin', 'co', 'sos', 'analyst', 'auditor', 'viewer'];
const SOS_ONLY: Role[] = ['co', 'sos'];

/** Every area of the seed UI; an area whose pages are not built yet shows a page that says so. */
export const NAV_SECTIONS: NavSection[] = [
  { label: 'Clienti', icon: 'users', items: [
    { label: 'Anagrafe', href: '/anagrafe', roles: STAFF },
    { label: 'Onboarding', href: '/admin/onboarding/cases', roles: STAFF },
    { label: 'Adeguata verifica', href: '/cdd', roles: STAFF },
    { label: 'Verifica rafforzata', href: '/edd', roles: STAFF },
    { label: 'KYC', href: '/admin/kyc', roles: STAFF },
    { label: 'KYB', href: '/admin/kyb', roles: STAFF },
    { label: 'Documenti', href: '/documenti', roles: STAFF },
  ] },
  { label: 'Monitoraggio', icon: 'activity', items: [
    { label: 'Alert', href: '/alert', roles: STAFF },
    { label: 'KYT', href: '/kyt/alerts', roles: STAFF },
    { label: 'Transazioni', href: '/transazioni', roles: STAFF },
    { label: 'Travel rule', href: '/admin/travel-rule', roles: STAFF },
    { label: 'Screening', href: '/screening', roles: STAFF },
    { label: 'Liste e import', href: '/admin/screening', roles: STAFF },
  ] },
  { label: 'Indagini', icon: 'briefcase', items: [
    { label: 'Casi', href: '/casi', roles: STAFF },
    { label: 'SOS', href: '/sos', roles: SOS_ONLY },
    { label: 'Filing', href: '/filing', roles: ['admin', 'co', 'sos', 'auditor'] },
    { label: 'Fascicoli', href: '/dossier', roles: STAFF },
    { label: 'Segnalazioni periodiche', href: '/reporting', roles: STAFF },
  ] },
  { label: 'Rischio', icon: 'gauge', items: [
    { label: 'Panoramica rischio', href: '/rischio', roles: STAFF },
    { label: 'Matrice', href: '/rischio/matrice', roles: STAFF },
    { label: 'Autovalutazione', href: '/rischio/autovalutazione', roles: STAFF },
    { label: 'Indicatori di anomalia', href: '/indicatori', roles: STAFF },
  ] },
  { label: 'Governance', icon: 'shield', items: [
    { label: 'Audit', href: '/audit', roles: ['admin', 'co', 'auditor'] },
    { label: 'Rimediazioni', href: '/rimediazioni', roles: STAFF },
    { label: 'Controlli', href: '/compliance/dashboard', roles: STAFF },
    { label: 'Evidenze', href: '/evidenze', roles: STAFF },
    { label: 'Normativa', href: '/normativa', roles: STAFF },
    { label: 'Formazione', href: '/formazione', roles: STAFF },
    { label: 'Firme', href: '/firme/pending', roles: STAFF },
    { label: 'Log certificati', href: '/logs/ledger', roles: ['admin', 'co', 'auditor'] },
    { label: 'Whistleblowing', href: '/whistleblowing', roles: ['admin', 'co'] },
  ] },
  { label: 'Assistente', icon: 'sparkles', items: [
    { label: 'Dashboard', href: '/dashboard', roles: STAFF },
    { label: 'Checklist', href: '/checklist', roles: STAFF },
    { label: 'Approvazioni AI', href: '/ai/approvals', roles: ['admin', 'co'] },
    { label: 'Backbone', href: '/admin/ceb/dashboard', roles: ['admin', 'co'] },
  ] },
  { label: 'Organizzazione', icon: 'building', items: [
    { label: 'Aziende', href: '/organizzazione', roles: ['superadmin'] },
    { label: 'Utenti', href: '/organizzazione/utenti', roles: ['superadmin', 'admin'] },
    { label: 'Configurazione', href: '/organizzazione/configurazione', roles: ['superadmin', 'admin'] },
    { label: 'Messaggi in uscita', href: '/organizzazione/messaggi', roles: ['superadmin', 'admin'] },
    { label: 'Registro audit', href: '/audit/eventi', roles: ['superadmin', 'admin', 'co', 'auditor'] },
    { label: 'API', href: '/api/docs', roles: ['superadmin', 'admin', 'co', 'auditor'] },
  ] },
];

export const NAV_HREFS = new Set(NAV_SECTIONS.flatMap((s) => s.items.map((i) => i.href)));

export function navigation(roles: Role[], currentPath: string) {
  return NAV_SECTIONS.map((s) => ({
    ...s,
    items: s.items
      .filter((i) => !i.roles || i.roles.some((r) => roles.includes(r)))
      .map((i) => ({ ...i, active: currentPath === i.href || currentPath.startsWith(`${i.href}/`) })),
  })).filter((s) => s.items.length > 0)
    .map((s) => ({ ...s, active: s.items.some((i) => i.active) }));
}
