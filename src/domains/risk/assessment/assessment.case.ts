import type { Knex } from 'knex';
import type { Deps } from '../../../deps';
import { assertReferencesInTenant } from '../../../db/references';
import { withTenant } from '../../../db/tenant';
import type { SessionUser } from '../../../http/context';
import { conflict, notFound } from '../../../http/errors';
import { appendAudit } from '../../audit';
import { openInvestigationCase } from '../../cases';
import { uuidFromKey } from './assessment.commands';
import { CLASSE_LABELS } from './assessment.labels';
import { getAssessment } from './assessment.repo';

export interface OpenCaseFromAssessmentRequest {
  codAzienda: string;
  user: SessionUser;
  codValutazione: string;
  /**
   * The body field that names the assessment (the API): another tenant's, or none, is then a 422
   * on it, as for any reference in a body. A page names it in its path, where it is a 404.
   */
  field?: string;
  titolo?: string;
  descrizione?: string;
  priorita?: 'bassa' | 'media' | 'alta' | 'critica';
}

/**
 * Opens an investigation case for the assessment's customer through the cases area, and links
 * it to the assessment (cod_caso, an audit event). The case's id follows from the assessment's,
 * so a second call (or two at once) answers the same case: `created` says which.
 */
export async function openCaseFromAssessment(deps: Deps, r: OpenCaseFromAssessmentRequest) {
  const db = <T>(fn: (trx: Knex.Transaction) => Promise<T>) => withTenant(deps.db, { codAzienda: r.codAzienda, actor: r.user.username }, fn);
  const row = await db(async (trx) => {
    if (r.field) await assertReferencesInTenant(trx, r.codAzienda, { [r.field]: { kind: 'valutazione', value: r.codValutazione } });
    return getAssessment(trx, r.codAzienda, r.codValutazione);
  });
  if (!row) throw notFound('Valutazione', 'f');
  if (row.stato === 'draft') throw conflict('NOT_CALCULATED', 'La valutazione non è ancora stata calcolata');
  const caseId = uuidFromKey(`case-from-assessment:${row.id}`);
  const classe = row.classe_effettiva ?? row.classe_calcolata;
  const { view } = await openInvestigationCase(deps, r.codAzienda, r.user, {
    titolo: r.titolo ?? `Indagine sul rischio del cliente ${row.cod_anagrafe} (${row.cod_valutazione})`,
    descrizione: r.descrizione ?? `Aperto dalla valutazione ${row.cod_valutazione}: punteggio ${row.punteggio ?? '—'}, classe ${classe ? CLASSE_LABELS[classe] : '—'}.`,
    tipo: 'indagine', priorita: r.priorita ?? (classe === 'alto' ? 'alta' : 'media'), cod_anagrafe: row.cod_anagrafe, assegnatario: undefined,
  }, { caseId });
  const created = await db(async (trx) => {
    const linked = await trx('rischio_valutazioni').where({ id: row.id }).whereNull('cod_caso').update({ cod_caso: caseId, updated_at: new Date() });
    if (!linked) return false;
    await appendAudit(trx, {
      codAzienda: r.codAzienda, actor: r.user.username, action: 'risk_assessment.case_opened', entityType: 'risk_assessment', entityId: row.id,
      data: { cod_valutazione: row.cod_valutazione, cod_caso: caseId, cod_anagrafe: row.cod_anagrafe },
    });
    return true;
  });
  return { created, cod_valutazione: row.cod_valutazione, cod_caso: caseId, caso: view };
}
