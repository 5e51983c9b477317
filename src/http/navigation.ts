import { NAV_SECTION_ORDER, type NavEntry, type NavSectionName } from '../kit/nav';
import type { Role } from '../kit/roles';

const STAFF: Role[] = ['admin', 'co', 'sos', 'analyst', 'auditor', 'viewer'];

const SECTION_ICONS: Record<NavSectionName, string> = {
  Clienti: 'users', Monitoraggio: 'activity', Indagini: 'briefcase', Rischio: 'gauge', Governance: 'shield', Assistente: 'sparkles', Organizzazione: 'building',
};

/**
 * Areas of the seed UI that no area of the registry builds yet: the navigation shows them
 * and a page says they are in preparation. An area that gets built brings its own entry
 * (src/areas.ts) and its line here goes.
 */
export const PLANNED_AREAS: NavEntry[] = [
  { section: 'Clienti', label: 'KYC', href: '/admin/kyc', roles: STAFF, order: 50 },
  { section: 'Clienti', label: 'KYB', href: '/admin/kyb', roles: STAFF, order: 60 },
  { section: 'Clienti', label: 'Documenti', href: '/documenti', roles: STAFF, order: 70 },
  { section: 'Monitoraggio', label: 'Travel rule', href: '/admin/travel-rule', roles: STAFF, order: 40 },
  { section: 'Rischio', label: 'Panoramica rischio', href: '/rischio', roles: STAFF, order: 10 },
  { section: 'Rischio', label: 'Matrice', href: '/rischio/matrice', roles: STAFF, order: 20 },
  { section: 'Rischio', label: 'Autovalutazione', href: '/rischio/autovalutazione', roles: STAFF, order: 30 },
  { section: 'Rischio', label: 'Indicatori di anomalia', href: '/indicatori', roles: STAFF, order: 40 },
  { section: 'Governance', label: 'Audit', href: '/audit', roles: ['admin', 'co', 'auditor'], order: 10 },
  { section: 'Governance', label: 'Rimediazioni', href: '/rimediazioni', roles: STAFF, order: 20 },
  { section: 'Governance', label: 'Controlli', href: '/compliance/dashboard', roles: STAFF, order: 30 },
  { section: 'Governance', label: 'Evidenze', href: '/evidenze', roles: STAFF, order: 40 },
  { section: 'Governance', label: 'Normativa', href: '/normativa', roles: STAFF, order: 50 },
  { section: 'Governance', label: 'Formazione', href: '/formazione', roles: STAFF, order: 60 },
  { section: 'Governance', label: 'Firme', href: '/firme/pending', roles: STAFF, order: 70 },
  { section: 'Governance', label: 'Log certificati', href: '/logs/ledger', roles: ['admin', 'co', 'auditor'], order: 80 },
  { section: 'Governance', label: 'Whistleblowing', href: '/whistleblowing', roles: ['admin', 'co'], order: 90 },
  { section: 'Assistente', label: 'Checklist', href: '/checklist', roles: STAFF, order: 20 },
  { section: 'Assistente', label: 'Approvazioni AI', href: '/ai/approvals', roles: ['admin', 'co'], order: 30 },
  { section: 'Assistente', label: 'Backbone', href: '/admin/ceb/dashboard', roles: ['admin', 'co'], order: 40 },
];

export interface NavItem { label: string; href: string; roles: readonly Role[]; planned: boolean }
export interface NavSection { label: NavSectionName; icon: string; items: NavItem[] }

/** The staff navigation, built once from the registry's entries and the planned areas. */
export class Navigation {
  readonly sections: NavSection[];
  /** Links to areas not built yet: answered by the placeholder page. */
  readonly plannedHrefs: Set<string>;
  readonly #planned: Map<string, NavEntry>;

  constructor(built: readonly NavEntry[], planned: readonly NavEntry[] = PLANNED_AREAS) {
    const builtHrefs = new Set(built.map((e) => e.href));
    const stillPlanned = planned.filter((e) => !builtHrefs.has(e.href));
    const all = [...built.map((e) => ({ e, planned: false })), ...stillPlanned.map((e) => ({ e, planned: true }))];
    this.plannedHrefs = new Set(stillPlanned.map((e) => e.href));
    this.#planned = new Map(stillPlanned.map((e) => [e.href, e]));
    this.sections = NAV_SECTION_ORDER.map((label) => ({
      label,
      icon: SECTION_ICONS[label],
      items: all.filter((x) => x.e.section === label).sort((a, b) => a.e.order - b.e.order)
        .map(({ e, planned: p }) => ({ label: e.label, href: e.href, roles: e.roles, planned: p })),
    }));
  }

  /** The navigation entry of an area not built yet (its Italian label and section), or undefined. */
  planned(href: string): { label: string; section: NavSectionName } | undefined {
    const e = this.#planned.get(href);
    return e ? { label: e.label, section: e.section } : undefined;
  }

  /** The sections and entries a user with these roles sees, with the current one marked. */
  forUser(roles: readonly Role[], currentPath: string) {
    return this.sections.map((s) => ({
      ...s,
      items: s.items
        .filter((i) => i.roles.some((r) => roles.includes(r)))
        .map((i) => ({ ...i, active: currentPath === i.href || currentPath.startsWith(`${i.href}/`) })),
    })).filter((s) => s.items.length > 0)
      .map((s) => ({ ...s, active: s.items.some((i) => i.active) }));
  }
}
