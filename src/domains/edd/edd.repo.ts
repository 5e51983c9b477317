import type { Knex } from 'knex';
import type { EddRecord, EddStepRecord } from '../../../workflows/edd/edd.contract';
import { isUuid } from '../../kit/ids';
import { runList, tenantScope } from '../../kit/list';
import { eddList } from './edd.list';
import type { ListEddQuery } from './edd.schemas';

/** Reads of the EDD projection. Always inside withTenant: RLS hides other tenants' rows. */

export interface EddRow extends Omit<EddRecord, 'submitted_at' | 'approved_at' | 'closed_at' | 'created_at' | 'updated_at'> {
  submitted_at: Date | null;
  approved_at: Date | null;
  closed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A step's columns; the due date as 'yyyy-mm-dd' (a date has no time zone to shift it). */
export const stepColumns = (db: Knex) => [
  'id', 'edd_id', 'ordine', 'tipo', 'titolo', 'descrizione', 'assegnatario', db.raw("to_char(scadenza, 'YYYY-MM-DD') as scadenza"),
  'stato', 'esito', 'riferimento_evidenza', 'completed_by', 'completed_at', 'created_by', 'created_at',
];

/** The EDD list; `da_approvare=true` becomes the caller's id (`me`, their cod_utente). */
export function listEdd(trx: Knex.Transaction, codAzienda: string, q: ListEddQuery, me: string) {
  const { da_approvare: daApprovare, ...rest } = q;
  return runList<EddRow>(trx, eddList, tenantScope(codAzienda), { ...rest, ...(daApprovare ? { approvabile_da: me } : {}) });
}

export async function getEdd(trx: Knex.Transaction, id: string): Promise<EddRow | undefined> {
  if (!isUuid(id)) return undefined;
  return trx('edd_casi').where({ id }).first();
}

export async function stepsOf(trx: Knex.Transaction, eddId: string): Promise<EddStepRecord[]> {
  return trx('edd_step').where({ edd_id: eddId }).orderBy('ordine').select(stepColumns(trx));
}

export async function stepOf(trx: Knex.Transaction, eddId: string, stepId: string): Promise<EddStepRecord | undefined> {
  if (!isUuid(stepId)) return undefined;
  return trx('edd_step').where({ edd_id: eddId, id: stepId }).first(stepColumns(trx));
}

export async function auditOf(trx: Knex.Transaction, codAzienda: string, eddId: string) {
  return trx('audit_events').where({ cod_azienda: codAzienda, entity_type: 'edd', entity_id: eddId })
    .orderByRaw('seq nulls last, id').select('seq', 'action', 'actor', 'occurred_at', 'data');
}

export interface EddCustomer {
  cod_anagrafe: string; denominazione: string; tipo_soggetto: string; pep: boolean; classe_rischio: string | null;
  nazionalita: string | null; paese_residenza: string | null; stato: string;
}

export async function customerOf(trx: Knex.Transaction, codAzienda: string, codAnagrafe: string): Promise<EddCustomer | undefined> {
  return trx('anagrafe').where({ cod_azienda: codAzienda, cod_anagrafe: codAnagrafe })
    .first('cod_anagrafe', 'denominazione', 'tipo_soggetto', 'pep', 'classe_rischio', 'nazionalita', 'paese_residenza', 'stato');
}

/** Customer names of a page of cases, in one query. */
export async function customerNames(trx: Knex.Transaction, codAzienda: string, cods: string[]): Promise<Record<string, string>> {
  const unique = [...new Set(cods)];
  if (!unique.length) return {};
  const rows = await trx('anagrafe').where({ cod_azienda: codAzienda }).whereIn('cod_anagrafe', unique).select('cod_anagrafe', 'denominazione');
  return Object.fromEntries(rows.map((r: { cod_anagrafe: string; denominazione: string }) => [r.cod_anagrafe, r.denominazione]));
}

/** A customer's EDD cases, newest first (the customer file and the CDD process read them). */
export async function casesForCustomer(trx: Knex.Transaction, codAnagrafe: string): Promise<EddRow[]> {
  return trx('edd_casi').where({ cod_anagrafe: codAnagrafe }).orderBy('created_at', 'desc').select('*');
}

/** Completed and total steps of a page of cases, in one query (index edd_step_caso). */
export async function stepCounts(trx: Knex.Transaction, ids: string[]): Promise<Record<string, { fatti: number; totale: number }>> {
  if (!ids.length) return {};
  const rows = await trx('edd_step').whereIn('edd_id', ids).groupBy('edd_id')
    .select('edd_id', trx.raw("count(*) filter (where stato = 'completato')::int as fatti"), trx.raw('count(*)::int as totale'));
  return Object.fromEntries(rows.map((r: { edd_id: string; fatti: number; totale: number }) => [r.edd_id, { fatti: r.fatti, totale: r.totale }]));
}
