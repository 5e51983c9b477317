import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { conflict, notFound, ValidationError } from '../../http/errors';
import { isUuid } from '../../kit/ids';
import { appendAudit } from '../audit';
import { declaredFromAnswers, getCustomer, nextCode, updateCustomer } from '../records';
import { mergeAnswers, questionsFor, type Answers } from './kyc-answers';
import { DEFAULT_KYC_TEMPLATE } from './kyc-template.default';
import type { KycQuestion } from './kyc-template.types';
import { CDD_CODE } from './cdd-task.repo';

/** KYC questionnaires: created from the active template, answered against it, completed once every required question is answered. */

export interface TemplateRow { id: string; codice: string; versione: number; titolo: string; domande: KycQuestion[]; attivo: boolean }

export interface QuestionnaireRow {
  id: string; cod_azienda: string; cod_questionario: string; template_id: string; template_codice: string; template_versione: number;
  cod_anagrafe: string; tipo_soggetto: string; cdd_pratica_id: string | null; risposte: Answers; stato: 'bozza' | 'completato';
  created_by: string; updated_by: string | null; completed_by: string | null; completed_at: Date | null; created_at: Date; updated_at: Date;
}

const QST_CODE = /^QST-\d{6,}$/;

/** The active version of a template (platform data, the same for every tenant). */
export async function activeTemplate(trx: Knex.Transaction, codice = DEFAULT_KYC_TEMPLATE.codice): Promise<TemplateRow> {
  const t = await trx('questionari_template').where({ codice, attivo: true }).first();
  if (!t) throw notFound('Modello di questionario', 'm');
  return t as TemplateRow;
}

/** The questions of the active template for a subject type, with the template's identity. */
export async function questionsForSubject(trx: Knex.Transaction, tipoSoggetto: string) {
  const t = await activeTemplate(trx);
  return { codice: t.codice, versione: t.versione, titolo: t.titolo, tipo_soggetto: tipoSoggetto, domande: questionsFor(t.domande, tipoSoggetto) };
}

export async function getQuestionnaire(trx: Knex.Transaction, codQuestionario: string): Promise<QuestionnaireRow | undefined> {
  if (!QST_CODE.test(codQuestionario)) return undefined;
  return trx('questionari').where({ cod_questionario: codQuestionario }).first();
}

/** The questionnaire with the questions it was created under (its template version, not the active one). */
export async function questionnaireView(trx: Knex.Transaction, q: QuestionnaireRow) {
  const t = await trx('questionari_template').where({ id: q.template_id }).first('domande', 'titolo');
  return { ...q, titolo: t.titolo as string, domande: questionsFor(t.domande as KycQuestion[], q.tipo_soggetto) };
}

async function requireQuestionnaire(trx: Knex.Transaction, cod: string): Promise<QuestionnaireRow> {
  const q = await getQuestionnaire(trx, cod);
  if (!q) throw notFound('Questionario', 'm');
  return q;
}

/**
 * A new questionnaire for a customer (and its CDD task, when given) from the active template.
 * References in the body that are not the tenant's are a 422 naming the field.
 */
export async function createQuestionnaire(trx: Knex.Transaction, p: {
  codAzienda: string; actor: string; codAnagrafe: string; cddPratica?: string | null;
}): Promise<QuestionnaireRow> {
  const customer = await trx('anagrafe').where({ cod_azienda: p.codAzienda, cod_anagrafe: p.codAnagrafe }).first('cod_anagrafe', 'tipo_soggetto');
  if (!customer) throw new ValidationError([{ path: 'cod_anagrafe', message: 'Cliente non trovato in questa azienda' }]);
  let taskId: string | null = null;
  if (p.cddPratica) {
    const by = isUuid(p.cddPratica) ? { id: p.cddPratica } : CDD_CODE.test(p.cddPratica) ? { cod_pratica: p.cddPratica } : null;
    const task = by ? await trx('cdd_pratiche').where({ cod_azienda: p.codAzienda, ...by }).first('id', 'cod_anagrafe') : undefined;
    if (!task) throw new ValidationError([{ path: 'cdd_pratica', message: 'Pratica di adeguata verifica non trovata in questa azienda' }]);
    if (task.cod_anagrafe !== p.codAnagrafe) throw new ValidationError([{ path: 'cdd_pratica', message: 'La pratica riguarda un altro cliente' }]);
    taskId = task.id;
  }
  const t = await activeTemplate(trx);
  const id = randomUUID();
  const cod = await nextCode(trx, p.codAzienda, 'QST');
  const [row] = await trx('questionari').insert({
    id, cod_azienda: p.codAzienda, cod_questionario: cod, template_id: t.id, template_codice: t.codice, template_versione: t.versione,
    cod_anagrafe: p.codAnagrafe, tipo_soggetto: customer.tipo_soggetto, cdd_pratica_id: taskId, created_by: p.actor,
  }).returning('*');
  await appendAudit(trx, {
    codAzienda: p.codAzienda, actor: p.actor, action: 'questionario.create', entityType: 'questionario', entityId: cod,
    data: { cod_anagrafe: p.codAnagrafe, template: t.codice, versione: t.versione, ...(taskId ? { cdd_pratica_id: taskId } : {}) },
  });
  return row as QuestionnaireRow;
}

/**
 * What a completed questionnaire declares goes on the customer's record, in the same transaction
 * (a new version, only when something changes): the expected volume and cash use, and the
 * occupation (records.declared.ts maps the answers). A deleted record is left as it is.
 */
async function applyDeclaredProfile(trx: Knex.Transaction, codAzienda: string, actor: string, codAnagrafe: string, answers: Answers): Promise<void> {
  const customer = await getCustomer(trx, codAnagrafe);
  if (!customer || customer.stato === 'eliminato') return;
  const patch = declaredFromAnswers(answers, customer);
  if (Object.keys(patch).length) await updateCustomer(trx, codAzienda, actor, codAnagrafe, patch);
}

/**
 * Saves answers (merged into the stored ones, each checked against the template); a completed
 * questionnaire is closed, and what it declares is written on the customer's record.
 */
export async function saveQuestionnaireAnswers(trx: Knex.Transaction, p: {
  codAzienda: string; actor: string; codQuestionario: string; risposte: Answers; complete?: boolean;
}): Promise<QuestionnaireRow> {
  const q = await requireQuestionnaire(trx, p.codQuestionario);
  const locked = await trx('questionari').where({ id: q.id }).forUpdate().first() as QuestionnaireRow;
  if (locked.stato === 'completato') throw conflict('QUESTIONNAIRE_COMPLETED', 'Il questionario è già completato: per cambiare le risposte creane uno nuovo');
  const t = await trx('questionari_template').where({ id: locked.template_id }).first('domande');
  const { answers, errors } = mergeAnswers({ domande: t.domande, tipoSoggetto: locked.tipo_soggetto, stored: locked.risposte, incoming: p.risposte, complete: !!p.complete });
  if (errors.length) throw new ValidationError(errors, 'Alcune risposte non sono valide');
  const now = new Date();
  const [row] = await trx('questionari').where({ id: q.id }).update({
    risposte: JSON.stringify(answers), updated_by: p.actor, updated_at: now,
    ...(p.complete ? { stato: 'completato', completed_by: p.actor, completed_at: now } : {}),
  }).returning('*');
  if (p.complete) await applyDeclaredProfile(trx, p.codAzienda, p.actor, locked.cod_anagrafe, answers);
  await appendAudit(trx, {
    codAzienda: p.codAzienda, actor: p.actor, action: p.complete ? 'questionario.complete' : 'questionario.answers', entityType: 'questionario', entityId: locked.cod_questionario,
    data: { cod_anagrafe: locked.cod_anagrafe, domande: Object.keys(p.risposte) },
  });
  return row as QuestionnaireRow;
}

/** The customer's KYC profile: the latest questionnaire (completed first), or none yet. */
export async function kycProfile(trx: Knex.Transaction, codAnagrafe: string) {
  const customer = await trx('anagrafe').where({ cod_anagrafe: codAnagrafe }).first('cod_anagrafe', 'tipo_soggetto');
  if (!customer) throw notFound('Cliente', 'm');
  const latest = await trx('questionari').where({ cod_anagrafe: codAnagrafe })
    .orderByRaw("(stato = 'completato') desc, coalesce(completed_at, updated_at) desc, id desc").first() as QuestionnaireRow | undefined;
  return { cod_anagrafe: codAnagrafe, tipo_soggetto: customer.tipo_soggetto as string, questionario: latest ? await questionnaireView(trx, latest) : null };
}

/**
 * Submits a customer's KYC answers in one go (POST /api/kyc/anagrafe/:cod): a new questionnaire
 * linked to the customer's open CDD task, answered and completed, every required question included.
 */
export async function submitKycProfile(trx: Knex.Transaction, p: { codAzienda: string; actor: string; codAnagrafe: string; risposte: Answers }) {
  const customer = await trx('anagrafe').where({ cod_anagrafe: p.codAnagrafe }).first('cod_anagrafe');
  if (!customer) throw notFound('Cliente', 'm');
  const open = await trx('cdd_pratiche').where({ cod_anagrafe: p.codAnagrafe }).whereIn('stato', ['open', 'in_progress', 'pending_review']).first('id');
  const q = await createQuestionnaire(trx, { codAzienda: p.codAzienda, actor: p.actor, codAnagrafe: p.codAnagrafe, cddPratica: open?.id ?? null });
  return saveQuestionnaireAnswers(trx, { codAzienda: p.codAzienda, actor: p.actor, codQuestionario: q.cod_questionario, risposte: p.risposte, complete: true });
}
