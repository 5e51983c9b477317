import type { NavEntry } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';

/** The consoles' entries under Clienti: they take the place of the planned KYC and KYB entries (same href). */
export const consoleNavigation: NavEntry[] = [
  { section: 'Clienti', label: 'KYC', href: '/admin/kyc', roles: STAFF_READ, order: 50 },
  { section: 'Clienti', label: 'KYB', href: '/admin/kyb', roles: STAFF_READ, order: 60 },
];
