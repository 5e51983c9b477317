import type { Role } from '../../kit/roles';

/** Who reads regulatory reports: the compliance staff and the internal auditor (not the read-only viewer: the lines name customers' cash). */
export const REPORT_READERS: Role[] = ['admin', 'co', 'sos', 'analyst', 'auditor'];
