import type { Role } from '../../kit/roles';
import { DOCUMENT_READERS, DOCUMENT_WRITERS } from '../verifications';

/** Who uploads into the spine: the registry's writers, as for document records. */
export const SPINE_WRITERS: Role[] = DOCUMENT_WRITERS;
/** Who downloads a copy: those who work or audit the file (a viewer sees the index, not the content). */
export const SPINE_READERS: Role[] = DOCUMENT_READERS;
/** Who sets and lifts a legal hold: the compliance officer and the tenant's administrator. */
export const SPINE_HOLDERS: Role[] = ['co', 'admin'];
