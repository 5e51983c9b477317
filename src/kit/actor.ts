import type { SessionUser } from '../http/context';
import type { MachineActor } from '../../workflows/lib/machine';

/** A signed-in staff user as the machines see them: id for four-eyes, roles for the guards. */
export const staffActor = (u: SessionUser): MachineActor => ({ id: u.cod_utente, username: u.username, roles: [...u.ruoli] });
