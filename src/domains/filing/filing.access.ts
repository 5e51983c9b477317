import type { Role } from '../../kit/roles';

/** Who reads filings: those who prepare, approve and send them, and the auditors (viewers do not: they are regulatory reports). */
export const FILING_READERS: Role[] = ['admin', 'co', 'sos', 'analyst', 'auditor'];
