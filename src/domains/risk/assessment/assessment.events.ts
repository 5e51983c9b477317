import type { Knex } from 'knex';
import type { RiskMotivo } from '../../../../workflows/risk/risk-assessment.contract';

/** One event that calls for a new assessment of a customer; its key (rischio_eventi) makes it start at most one. */
export interface RiskEvent {
  chiave: string;
  codAnagrafe: string;
  motivo: Extract<RiskMotivo, 'evento_screening' | 'evento_anagrafe' | 'evento_cdd'>;
  riferimento: string;
}

/** How many events of each kind one sweep of a tenant takes; the next run takes the rest. */
export const RISK_EVENTS_BATCH = 200;
/** Events older than this are not "new" any more: a first sweep does not recalculate the past. */
const WINDOW_DAYS = 7;
/** Fields of the customer record that are the risk area's own output, not data the rules read. */
export const RISK_OUTPUT_FIELDS = ['classe_rischio', 'punteggio_rischio'] as const;

const notSeen = (trx: Knex.Transaction, key: Knex.Raw) =>
  trx('rischio_eventi as x').whereRaw('x.cod_azienda = (select app_current_tenant())').whereRaw('x.chiave = ?', [key]);
const recent = (trx: Knex.Transaction, column: string) => trx.raw(`?? >= now() - interval '${WINDOW_DAYS} days'`, [column]);

/** Screening matches of a customer raised in the last days and not dismissed (a possible sanctions or PEP hit). */
async function newMatches(trx: Knex.Transaction): Promise<RiskEvent[]> {
  const rows: { id: string; cod_anagrafe: string }[] = await trx('screening_matches as m')
    .join('screening_subjects as s', 's.id', 'm.subject_id')
    .whereNotNull('s.cod_anagrafe').whereIn('m.stato', ['open', 'assigned', 'true_match']).whereNull('m.deleted_at')
    .where(recent(trx, 'm.created_at'))
    .whereNotExists(notSeen(trx, trx.raw("'match:' || m.id::text")))
    .orderBy('m.created_at').limit(RISK_EVENTS_BATCH).select('m.id', 's.cod_anagrafe');
  return rows.map((m) => ({ chiave: `match:${m.id}`, codAnagrafe: m.cod_anagrafe, motivo: 'evento_screening', riferimento: m.id }));
}

/**
 * Versions of customer records changed in the last days in a field the rules may read: every
 * field but the class and score a release writes (or a release would start the next assessment).
 */
async function changedCustomers(trx: Knex.Transaction): Promise<RiskEvent[]> {
  const rows: { cod_anagrafe: string; versione: number }[] = await trx('anagrafe_versioni as v')
    .whereRaw('v.cod_azienda = (select app_current_tenant())')
    .where('v.operazione', 'update').where(recent(trx, 'v.changed_at'))
    .whereRaw('exists (select 1 from jsonb_object_keys(v.campi) k where k <> all(?::text[]))', [[...RISK_OUTPUT_FIELDS]])
    .whereNotExists(notSeen(trx, trx.raw("'anagrafe:' || v.cod_anagrafe || ':' || v.versione::text")))
    .orderBy('v.changed_at').limit(RISK_EVENTS_BATCH).select('v.cod_anagrafe', 'v.versione');
  return rows.map((v) => ({ chiave: `anagrafe:${v.cod_anagrafe}:${v.versione}`, codAnagrafe: v.cod_anagrafe, motivo: 'evento_anagrafe', riferimento: `versione ${v.versione}` }));
}

/** CDD tasks completed in the last days: what the due diligence found is data the rules read. */
async function completedCdd(trx: Knex.Transaction): Promise<RiskEvent[]> {
  const rows: { id: string; cod_anagrafe: string }[] = await trx('cdd_pratiche as c')
    .whereRaw('c.cod_azienda = (select app_current_tenant())')
    .where('c.stato', 'completed').where(recent(trx, 'c.completed_at'))
    .whereNotExists(notSeen(trx, trx.raw("'cdd:' || c.id::text")))
    .orderBy('c.completed_at').limit(RISK_EVENTS_BATCH).select('c.id', 'c.cod_anagrafe');
  return rows.map((c) => ({ chiave: `cdd:${c.id}`, codAnagrafe: c.cod_anagrafe, motivo: 'evento_cdd', riferimento: c.id }));
}

/**
 * The tenant's events not yet turned into an assessment, grouped by customer (one assessment
 * per customer per sweep, whatever the number of its events); a deleted customer's events
 * apart (marked seen: nobody assesses a deleted record).
 * Monitoring alerts join here once that area exists (motivo evento_monitoraggio).
 */
export async function pendingRiskEvents(trx: Knex.Transaction): Promise<{ byCustomer: Map<string, RiskEvent[]>; deleted: RiskEvent[] }> {
  const all = [...await newMatches(trx), ...await completedCdd(trx), ...await changedCustomers(trx)];
  const byCustomer = new Map<string, RiskEvent[]>();
  const deleted: RiskEvent[] = [];
  if (!all.length) return { byCustomer, deleted };
  const live: { cod_anagrafe: string }[] = await trx('anagrafe').whereIn('cod_anagrafe', [...new Set(all.map((e) => e.codAnagrafe))])
    .whereNot('stato', 'eliminato').select('cod_anagrafe');
  const alive = new Set(live.map((r) => r.cod_anagrafe));
  for (const e of all) {
    if (!alive.has(e.codAnagrafe)) deleted.push(e);
    else byCustomer.set(e.codAnagrafe, [...(byCustomer.get(e.codAnagrafe) ?? []), e]);
  }
  return { byCustomer, deleted };
}

/** Records that these events started (or joined) an assessment: the next sweep starts nothing for them. */
export async function markRiskEvents(trx: Knex.Transaction, codAzienda: string, events: RiskEvent[], valutazioneId: string | null): Promise<void> {
  if (!events.length) return;
  await trx('rischio_eventi').insert(events.map((e) => ({ cod_azienda: codAzienda, chiave: e.chiave, cod_anagrafe: e.codAnagrafe, motivo: e.motivo, valutazione_id: valutazioneId })))
    .onConflict(['cod_azienda', 'chiave']).ignore();
}
