import type { Role } from '../../../kit/roles';

/** Who may confirm an override (the four-eyes step): the roles of the assessment machine's complete-override. */
export const OVERRIDE_CONFIRMERS: readonly Role[] = ['co'];
export const canConfirmOverride = (roles: readonly Role[]) => roles.some((r) => OVERRIDE_CONFIRMERS.includes(r));
