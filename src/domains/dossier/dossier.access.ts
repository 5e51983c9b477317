import { dossierMachine } from '../../../workflows/dossier/dossier.machine';
import { rolesFor } from '../../kit/process';
import type { Role } from '../../kit/roles';

/**
 * Who reads and downloads customer dossiers: compliance, the SOS delegate, analysts, admins and
 * internal audit. A viewer does not: the dossier gathers screening hits and investigations.
 */
export const DOSSIER_READERS: Role[] = ['admin', 'co', 'sos', 'analyst', 'auditor'];
/** Who generates one: those who work the customers (auditors read, they do not produce records). */
export const DOSSIER_GENERATORS: Role[] = ['admin', 'co', 'analyst'];
export const DOSSIER_SIGNERS = rolesFor(dossierMachine, 'sign');
