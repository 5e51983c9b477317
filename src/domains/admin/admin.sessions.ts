import { withPlatform, type PlatformDb } from '../../db/tenant';
import type { SessionStore } from '../../http/session-store';

/**
 * A disabled tenant's users cannot sign in (the login checks it) and must not keep working
 * in sessions opened before: end them all.
 */
export async function endTenantSessions(db: PlatformDb, sessions: SessionStore, codAzienda: string, actor: string): Promise<number> {
  const users: { cod_utente: string }[] = await withPlatform(db, actor, (trx) => trx('utenti').where({ cod_azienda: codAzienda }).select('cod_utente'));
  for (const u of users) await sessions.destroyForUser(u.cod_utente);
  return users.length;
}
