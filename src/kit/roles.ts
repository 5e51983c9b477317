import { z } from 'zod';

/** Roles as in docs/processes.md. A user may hold several. */
export const ROLES = ['superadmin', 'admin', 'co', 'sos', 'analyst', 'auditor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = z.enum(ROLES);

export const ROLE_LABELS: Record<Role, string> = {
  superadmin: 'Superamministratore',
  admin: 'Amministratore',
  co: 'Responsabile antiriciclaggio',
  sos: 'Delegato SOS',
  analyst: 'Operatore',
  auditor: 'Revisore interno',
  viewer: 'Consultazione',
};

/** Role groups used by routes, so a new area reuses one decision instead of repeating lists. */
export const STAFF_READ: Role[] = ['admin', 'co', 'sos', 'analyst', 'auditor', 'viewer'];
export const STAFF_WRITE: Role[] = ['admin', 'co', 'sos', 'analyst'];
export const TENANT_ADMIN: Role[] = ['superadmin', 'admin'];
