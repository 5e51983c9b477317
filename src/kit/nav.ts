import type { Role } from './roles';

/** The sections of the staff navigation, in the order they are shown. */
export const NAV_SECTION_ORDER = ['Clienti', 'Monitoraggio', 'Indagini', 'Rischio', 'Governance', 'Assistente', 'Organizzazione'] as const;
export type NavSectionName = (typeof NAV_SECTION_ORDER)[number];

export interface NavEntry {
  section: NavSectionName;
  label: string;
  href: string;
  /** Who sees the entry (the pages enforce their own access anyway). */
  roles: readonly Role[];
  /** Position within its section (smaller first). */
  order: number;
}
