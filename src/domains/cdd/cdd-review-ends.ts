import type { Knex } from 'knex';
import { SWEEP_BATCH } from './cdd-triggers';

/** A scheduled periodic review that no longer has a business relationship to review. */
export interface EndedReview {
  id: string;
  codAnagrafe: string;
  motivazione: string;
}

/**
 * Scheduled reviews (`programmata`) of customers whose relationships have all ended, or who were
 * deleted: the periodic review exists for an ongoing relationship (art. 18 c.1 d.lgs. 231/2007),
 * so it is cancelled with the reason. A customer who never held a relationship keeps their review
 * (onboarding schedules it before any movement; a relationship may be added later). Closing a
 * relationship ends its open roles (records area), so "no open relationship" reads the holder's
 * rapporti and any open holder or co-holder role.
 */
export async function reviewsWithoutRelationship(trx: Knex.Transaction): Promise<EndedReview[]> {
  const rows: { id: string; cod_anagrafe: string; stato: string; chiusura: string | null }[] = await trx('cdd_reviews as r')
    .join('anagrafe as a', function () { this.on('a.cod_azienda', 'r.cod_azienda').andOn('a.cod_anagrafe', 'r.cod_anagrafe'); })
    .where('r.stato', 'programmata')
    .where((q) => q.where('a.stato', 'eliminato').orWhere((ended) => ended
      .whereExists(holderRelationships(trx))
      .whereNotExists(holderRelationships(trx).whereNot('ra.stato', 'chiuso'))
      .whereNotExists(trx('rapporti_soggetti as s')
        .join('rapporti as ro', function () { this.on('ro.cod_azienda', 's.cod_azienda').andOn('ro.cod_rapporto', 's.cod_rapporto'); })
        .whereRaw('s.cod_azienda = r.cod_azienda and s.cod_anagrafe = r.cod_anagrafe')
        .whereIn('s.ruolo', ['intestatario', 'cointestatario']).whereNull('s.al').whereNot('ro.stato', 'chiuso'))))
    .orderBy('r.due_at').limit(SWEEP_BATCH)
    .select('r.id', 'r.cod_anagrafe', 'a.stato', trx.raw(`(select to_char(max(ra.data_chiusura), 'DD/MM/YYYY') from rapporti ra
      where ra.cod_azienda = r.cod_azienda and ra.cod_anagrafe = r.cod_anagrafe) as chiusura`));
  return rows.map((r) => ({
    id: r.id, codAnagrafe: r.cod_anagrafe,
    motivazione: r.stato === 'eliminato'
      ? 'Soggetto eliminato dall\'anagrafe: nessun rapporto da sottoporre a verifica periodica'
      : `Tutti i rapporti del cliente sono chiusi${r.chiusura ? ` (l'ultimo il ${r.chiusura})` : ''}: nessun rapporto continuativo da verificare`,
  }));
}

const holderRelationships = (trx: Knex.Transaction) =>
  trx('rapporti as ra').whereRaw('ra.cod_azienda = r.cod_azienda and ra.cod_anagrafe = r.cod_anagrafe');
