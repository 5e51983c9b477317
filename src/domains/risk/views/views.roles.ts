import { rolesFor } from '../../../kit/process';
import type { Role } from '../../../kit/roles';
import { riskAssessmentMachine } from '../../../../workflows/risk/risk-assessment.machine';

/** Who may confirm an override (the four-eyes step): the roles of the assessment machine's complete-override. */
export const OVERRIDE_CONFIRMERS: readonly Role[] = rolesFor(riskAssessmentMachine, 'complete-override');
export const canConfirmOverride = (roles: readonly Role[]) => roles.some((r) => OVERRIDE_CONFIRMERS.includes(r));
