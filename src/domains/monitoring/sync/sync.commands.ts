import type { Knex } from 'knex';
import { withTenant } from '../../../db/tenant';
import { conflict, notFound } from '../../../http/errors';
import { runSync } from './sync.run';
import { DEAD_STATI, findSync } from './sync.repo';

/**
 * Replays a dead letter: the records it could not copy are read from the platform again (a run
 * that failed as a whole runs again in full). The replay is a run of its own (origine `replay`,
 * naming the dead letter); when it copies everything, the dead letter becomes `rieseguita`.
 * Not a dead letter (completed, replayed, running): 409. Another tenant's: 404.
 */
export async function replayDeadLetter(db: Knex, codAzienda: string, actor: string, codSync: string) {
  const { sync, keys } = await withTenant(db, { codAzienda, actor }, async (trx) => {
    const s = await findSync(trx, codAzienda, codSync);
    if (!s) throw notFound('Sincronizzazione');
    if (!(DEAD_STATI as readonly string[]).includes(s.stato)) {
      throw conflict('NOT_A_DEAD_LETTER', `La sincronizzazione ${codSync} non è da rieseguire (stato: ${s.stato})`, { stato: s.stato });
    }
    // Two replays at once of the same dead letter: the second waits, then finds it replayed or still dead.
    await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`engine-sync-replay|${codAzienda}|${codSync}`]);
    const k = s.stato === 'scarti' ? (await trx('engine_sync_scarti').where({ sync_id: s.id }).orderBy('chiave').pluck('chiave')) as string[] : undefined;
    return { sync: s, keys: k };
  });
  const result = await runSync(db, { codAzienda, tipo: sync.tipo, origine: 'replay', actor, replayOf: { id: sync.id, codSync, keys } });
  return withTenant(db, { codAzienda, actor }, async (trx) => ({ replay: (await findSync(trx, codAzienda, result.cod_sync))!, originale: (await findSync(trx, codAzienda, codSync))! }));
}
