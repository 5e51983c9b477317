import type { Role } from '../../kit/roles';

/**
 * Who may reach the SOS routes at all: the reporters and the delegates. Which report each of
 * them sees is the database's decision (docs/sos.md, "Tipping-off"); auditors, viewers and
 * admins are refused here besides.
 */
export const SOS_ACCESS: Role[] = ['analyst', 'sos', 'co'];
/** Who may turn a transmitted report into a goAML filing: the delegate and the compliance officer. */
export const SOS_FILERS: Role[] = ['sos', 'co'];
