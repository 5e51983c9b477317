import type { Knex } from 'knex';

/** What the /rischio overview and the approvals page read besides the portfolio figures: recent assessments and the last run. */

export interface AssessmentRow {
  id: string; cod_valutazione: string; cod_anagrafe: string; denominazione: string | null; stato: string; motivo: string;
  punteggio: number | null; classe_calcolata: string | null; classe_effettiva: string | null; classe_precedente: string | null;
  override_classe: string | null; override_motivo: string | null; override_scadenza: string | null; override_by: string | null; override_at: Date | null;
  released_at: Date | null; created_at: Date;
}

const columns = (trx: Knex) => [
  'v.id', 'v.cod_valutazione', 'v.cod_anagrafe', 'a.denominazione', 'v.stato', 'v.motivo', 'v.punteggio', 'v.classe_calcolata', 'v.classe_effettiva',
  'v.classe_precedente', 'v.override_classe', 'v.override_motivo', trx.raw("to_char(v.override_scadenza, 'YYYY-MM-DD') as override_scadenza"),
  'v.override_by', 'v.override_at', 'v.released_at', 'v.created_at',
];
const withCustomer = (trx: Knex.Transaction, codAzienda: string) => trx('rischio_valutazioni as v')
  .leftJoin('anagrafe as a', (j) => j.on('a.cod_azienda', 'v.cod_azienda').andOn('a.cod_anagrafe', 'v.cod_anagrafe'))
  .where('v.cod_azienda', codAzienda);

/** Assessments in one of `stati`, newest first (index rischio_valutazioni_stato), at most `limit`; `notBy`: not overridden by this user. */
export function assessmentsInState(trx: Knex.Transaction, codAzienda: string, stati: readonly string[], limit: number, notBy?: string): Promise<AssessmentRow[]> {
  return withCustomer(trx, codAzienda).whereIn('v.stato', stati).modify((qb) => { if (notBy) qb.whereRaw('v.override_by is distinct from ?', [notBy]); }).orderBy([{ column: 'v.created_at', order: 'desc' }, { column: 'v.id', order: 'desc' }])
    .limit(limit).select(columns(trx));
}

export async function countInState(trx: Knex.Transaction, codAzienda: string, stati: readonly string[], notBy?: string): Promise<number> {
  const r = await trx('rischio_valutazioni').where('cod_azienda', codAzienda).whereIn('stato', stati)
    .modify((qb) => { if (notBy) qb.whereRaw('override_by is distinct from ?', [notBy]); }).count({ n: '*' }).first();
  return Number(r?.n ?? 0);
}

/** The latest releases that changed a customer's class (newest first). */
export function latestClassChanges(trx: Knex.Transaction, codAzienda: string, limit: number): Promise<AssessmentRow[]> {
  return withCustomer(trx, codAzienda).whereNotNull('v.released_at').whereRaw('v.classe_effettiva is distinct from v.classe_precedente')
    .orderBy([{ column: 'v.created_at', order: 'desc' }, { column: 'v.id', order: 'desc' }]).limit(limit).select(columns(trx));
}

export interface RunRow { id: string; tipo: string; stato: string; totale: number | null; elaborati: number; cambi: number; started_by: string; started_at: Date; finished_at: Date | null }

/** The last recalculation of the whole portfolio, if there was one. */
export function lastPortfolioRun(trx: Knex.Transaction, codAzienda: string): Promise<RunRow | undefined> {
  return trx('rischio_esecuzioni').where({ cod_azienda: codAzienda, tipo: 'ricalcolo' }).orderBy([{ column: 'started_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .first('id', 'tipo', 'stato', 'totale', 'elaborati', 'cambi', 'started_by', 'started_at', 'finished_at');
}
