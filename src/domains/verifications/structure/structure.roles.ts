import { rolesFor } from '../../../kit/process';
import { verificationMachine } from '../../../../workflows/verification/verification.machine';

/** Who draws the structure and computes its owners: whoever may take the verification in hand. */
export const STRUCTURE_EDITORS = rolesFor(verificationMachine, 'start');
