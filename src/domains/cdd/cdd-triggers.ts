import type { Knex } from 'knex';
import type { CddMotivo } from '../../../workflows/cdd/cdd-task.contract';
import { getSetting } from '../admin';

/** One event that calls for a CDD task: its key (cdd_attivazioni) makes it start at most one. */
export interface CddTrigger {
  chiave: string;
  codAnagrafe: string;
  motivo: CddMotivo;
  origine: Record<string, unknown>;
  reviewId?: string;
  /** The event's own deadline (a document's expiry date). */
  dueBy?: Date;
}

/** How many events of each kind one sweep of a tenant takes; the next run takes the rest. */
export const SWEEP_BATCH = 200;
/** Matches and approvals older than this are not "new" any more (a first sweep does not reopen the past). */
const NEW_MATCH_DAYS = 7;

const notSeen = (trx: Knex.Transaction, key: Knex.Raw) =>
  trx('cdd_attivazioni as x').whereRaw('x.cod_azienda = (select app_current_tenant())').whereRaw('x.chiave = ?', [key]);

/** Periodic reviews the timer marked due (`scaduta`) that no task took yet. */
async function dueReviews(trx: Knex.Transaction): Promise<CddTrigger[]> {
  const rows: { id: string; cod_anagrafe: string; due_at: Date; classe_rischio: string | null }[] = await trx('cdd_reviews as r')
    .where('r.stato', 'scaduta')
    .whereNotExists(notSeen(trx, trx.raw("'revisione:' || r.id::text")))
    .orderBy('r.due_at').limit(SWEEP_BATCH).select('r.id', 'r.cod_anagrafe', 'r.due_at', 'r.classe_rischio');
  return rows.map((r) => ({
    chiave: `revisione:${r.id}`, codAnagrafe: r.cod_anagrafe, motivo: 'revisione_periodica', reviewId: r.id,
    origine: { review_id: r.id, due_at: new Date(r.due_at).toISOString(), classe_rischio: r.classe_rischio },
  }));
}

/**
 * Valid identity or company documents of customers expiring within the tenant's notice
 * (`cdd.document_expiry_notice_days`), or already expired and still marked valid: one task per
 * document and expiry date (a renewed document with a new date is a new event). The table is
 * the records area's (`documenti`); before it exists there is nothing to sweep.
 */
async function expiringDocuments(trx: Knex.Transaction, codAzienda: string): Promise<CddTrigger[]> {
  const { rows: [t] } = await trx.raw<{ rows: { exists: boolean }[] }>("select to_regclass('public.documenti') is not null as exists");
  if (!t?.exists) return [];
  const days = await getSetting(trx, 'cdd.document_expiry_notice_days', codAzienda);
  const rows: { id: string; cod_anagrafe: string; tipo: string; numero: string | null; data_scadenza: string }[] = await trx('documenti as d')
    .where('d.cod_azienda', codAzienda).where('d.stato', 'valido').whereNotNull('d.data_scadenza')
    .where('d.data_scadenza', '<=', trx.raw('current_date + ?::int', [days]))
    .whereNotExists(notSeen(trx, trx.raw("'documento:' || d.id::text || ':' || d.data_scadenza::text")))
    .orderBy('d.data_scadenza').limit(SWEEP_BATCH)
    .select('d.id', 'd.cod_anagrafe', 'd.tipo', 'd.numero', trx.raw('d.data_scadenza::text as data_scadenza'));
  return rows.map((d) => ({
    chiave: `documento:${d.id}:${d.data_scadenza}`, codAnagrafe: d.cod_anagrafe, motivo: 'documento_in_scadenza',
    origine: { documento_id: d.id, tipo: d.tipo, numero: d.numero, data_scadenza: d.data_scadenza }, dueBy: new Date(`${d.data_scadenza}T00:00:00Z`),
  }));
}

/** Screening matches of a customer raised in the last days and not dismissed: a new match calls for a review of the due diligence. */
async function newMatches(trx: Knex.Transaction): Promise<CddTrigger[]> {
  const rows: { id: string; cod_anagrafe: string; list_name: string; stato: string }[] = await trx('screening_matches as m')
    .join('screening_subjects as s', 's.id', 'm.subject_id')
    .whereNotNull('s.cod_anagrafe').whereIn('m.stato', ['open', 'assigned', 'true_match']).whereNull('m.deleted_at')
    .where('m.created_at', '>=', trx.raw(`now() - interval '${NEW_MATCH_DAYS} days'`))
    .whereNotExists(notSeen(trx, trx.raw("'match:' || m.id::text")))
    .orderBy('m.created_at').limit(SWEEP_BATCH).select('m.id', 's.cod_anagrafe', 'm.list_name', 'm.stato');
  return rows.map((m) => ({
    chiave: `match:${m.id}`, codAnagrafe: m.cod_anagrafe, motivo: 'nuovo_match_screening', origine: { match_id: m.id, lista: m.list_name, stato: m.stato },
  }));
}

/**
 * Onboarding cases approved in the last days: the new customer's due diligence opens as a task
 * (motivo `onboarding`), where the operator records what the onboarding collected and the
 * completion schedules the review by the class it came out with.
 */
async function approvedOnboardings(trx: Knex.Transaction): Promise<CddTrigger[]> {
  const rows: { id: string; cod_anagrafe: string }[] = await trx('onboarding_cases as o')
    .where('o.stato', 'approved').whereNotNull('o.cod_anagrafe')
    .where('o.updated_at', '>=', trx.raw(`now() - interval '${NEW_MATCH_DAYS} days'`))
    .whereNotExists(notSeen(trx, trx.raw("'onboarding:' || o.id::text")))
    .orderBy('o.updated_at').limit(SWEEP_BATCH).select('o.id', 'o.cod_anagrafe');
  return rows.map((o) => ({ chiave: `onboarding:${o.id}`, codAnagrafe: o.cod_anagrafe, motivo: 'onboarding', origine: { onboarding_case_id: o.id } }));
}

/** Every event of a tenant that calls for a CDD task now, inside its transaction (RLS). */
export async function pendingCddTriggers(trx: Knex.Transaction, codAzienda: string): Promise<CddTrigger[]> {
  const all = [...await approvedOnboardings(trx), ...await dueReviews(trx), ...await expiringDocuments(trx, codAzienda), ...await newMatches(trx)];
  if (!all.length) return all;
  // A soft-deleted customer is kept for the retention only: its events open nothing (and are not retried every hour).
  const gone = new Set((await trx('anagrafe').whereIn('cod_anagrafe', [...new Set(all.map((t) => t.codAnagrafe))]).where('stato', 'eliminato')
    .select('cod_anagrafe') as { cod_anagrafe: string }[]).map((r) => r.cod_anagrafe));
  return all.filter((t) => !gone.has(t.codAnagrafe));
}

/** The trigger for a change of the customer's risk class (called by the risk area). */
export function riskClassChangeTrigger(p: { codAnagrafe: string; da: string | null; a: string; riferimento: string }): CddTrigger {
  return { chiave: `classe:${p.codAnagrafe}:${p.riferimento}`, codAnagrafe: p.codAnagrafe, motivo: 'cambio_classe_rischio', origine: { da: p.da, a: p.a, riferimento: p.riferimento } };
}
