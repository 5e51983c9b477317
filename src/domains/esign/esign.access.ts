import { STAFF_READ } from '../../kit/roles';
import { staff, SIGNER, anyOf } from '../../kit/access';

/** The signer with the link's token, or the tenant's staff reading the same ceremony. */
export const SIGNER_OR_STAFF = anyOf(SIGNER, staff(STAFF_READ));
