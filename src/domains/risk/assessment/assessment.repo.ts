import type { Knex } from 'knex';
import { normaliseAssessmentRow, type RiskAssessmentRecord } from '../../../../workflows/risk/risk-assessment.contract';
import { isUuid } from '../../../kit/ids';
import { runList, tenantScope, type ListRequest } from '../../../kit/list';
import { assessmentsList } from './assessment.list';

/** Reads of the assessments' projection. Always inside withTenant: RLS hides other tenants' rows. */

export type AssessmentRow = RiskAssessmentRecord;

const CODE = /^VAL-[0-9]{6,}$/;

/** The assessment by its code (VAL-000001) or its id; undefined when it is not this tenant's. */
export async function getAssessment(trx: Knex.Transaction, codAzienda: string, codValutazione: string): Promise<AssessmentRow | undefined> {
  const by = CODE.test(codValutazione) ? { cod_valutazione: codValutazione } : isUuid(codValutazione) ? { id: codValutazione } : undefined;
  if (!by) return undefined;
  const row = await trx('rischio_valutazioni').where({ cod_azienda: codAzienda, ...by }).first();
  return row ? normaliseAssessmentRow(row as AssessmentRow) : undefined;
}

export interface AssessmentListQuery extends ListRequest {
  stato?: string; classe?: string; cod_anagrafe?: string; motivo?: string; da_confermare?: boolean; q?: string;
}

/** The list; `da_confermare=true` becomes the caller's id (overrides they may confirm). */
export async function listAssessments(trx: Knex.Transaction, codAzienda: string, q: AssessmentListQuery, me: string) {
  const { da_confermare: daConfermare, ...rest } = q;
  const page = await runList<AssessmentRow>(trx, assessmentsList, tenantScope(codAzienda), { ...rest, ...(daConfermare ? { confermabile_da: me } : {}) } as ListRequest);
  return { ...page, items: page.items.map(normaliseAssessmentRow) };
}

export interface HistoryPoint {
  calcolato_at: Date; punteggio: number; classe: string; probabilita: number; impatto: number; origine: string;
  versione_id: string; valutazione_id: string | null; esecuzione_id: string | null;
}

/**
 * A customer's risk over time: every calculation (rischio_storico, oldest first, for the chart)
 * and its assessments (newest first), with the class in force now.
 */
export async function assessmentHistory(trx: Knex.Transaction, codAzienda: string, codAnagrafe: string) {
  const punti: HistoryPoint[] = await trx('rischio_storico').where({ cod_azienda: codAzienda, cod_anagrafe: codAnagrafe })
    .orderBy('calcolato_at').orderBy('id').limit(1000)
    .select('calcolato_at', 'punteggio', 'classe', 'probabilita', 'impatto', 'origine', 'versione_id', 'valutazione_id', 'esecuzione_id');
  const valutazioni = ((await trx('rischio_valutazioni').where({ cod_azienda: codAzienda, cod_anagrafe: codAnagrafe })
    .orderBy('created_at', 'desc').limit(200).select('*')) as AssessmentRow[]).map(normaliseAssessmentRow);
  const corrente = await trx('rischio_correnti').where({ cod_azienda: codAzienda, cod_anagrafe: codAnagrafe })
    .first('punteggio', 'classe_calcolata', 'classe_effettiva', 'valutazione_id', 'calcolato_at');
  return { cod_anagrafe: codAnagrafe, corrente: corrente ?? null, punti, valutazioni };
}

export async function assessmentAudit(trx: Knex.Transaction, codAzienda: string, id: string) {
  return trx('audit_events').where({ cod_azienda: codAzienda, entity_type: 'risk_assessment', entity_id: id })
    .orderByRaw('seq nulls last, id').select('seq', 'action', 'actor', 'occurred_at', 'data');
}
