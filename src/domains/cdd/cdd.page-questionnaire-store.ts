import type { Knex } from 'knex';
import type { Answers } from './kyc-answers';
import { createQuestionnaire, saveQuestionnaireAnswers } from './kyc.service';
import type { KycQuestion } from './kyc-template.types';
import { answeredCount, applicableQuestions } from './cdd.page-questionnaire';
import type { CddTaskRow } from './cdd-task.repo';

export interface TaskQuestionnaire {
  /** The questionnaire filled in for the task; undefined until the first save. */
  row: { id: string; cod_questionario: string; stato: string; risposte: Record<string, unknown>; updated_at: Date } | undefined;
  /** Its template, or the active KYC template when none was filled in yet. */
  template: { id: string; titolo: string; versione: number; domande: KycQuestion[] };
  /** The template's questions that apply to the customer's subject type. */
  questions: KycQuestion[];
}

/** The task's questionnaire (the latest) and its template, read in the tenant's transaction. */
export async function taskQuestionnaire(trx: Knex.Transaction, taskId: string, tipoSoggetto: string | null): Promise<TaskQuestionnaire> {
  const row = await trx('questionari').where({ cdd_pratica_id: taskId }).orderBy('created_at', 'desc')
    .first('id', 'cod_questionario', 'stato', 'risposte', 'updated_at', 'template_id');
  const template = row
    ? await trx('questionari_template').where({ id: row.template_id }).first('id', 'titolo', 'versione', 'domande')
    : await trx('questionari_template').where({ codice: 'kyc-standard', attivo: true }).first('id', 'titolo', 'versione', 'domande');
  if (!template) throw new Error('no active KYC questionnaire template');
  return {
    row: row ? { id: row.id, cod_questionario: row.cod_questionario, stato: row.stato, risposte: row.risposte ?? {}, updated_at: row.updated_at } : undefined,
    template,
    questions: applicableQuestions(template.domande, tipoSoggetto),
  };
}

/** What the task's page says of the questionnaire: its state, how many questions are answered, its template. */
export async function questionnaireSummary(trx: Knex.Transaction, t: Pick<CddTaskRow, 'id'>, tipoSoggetto: string | null) {
  const q = await taskQuestionnaire(trx, t.id, tipoSoggetto);
  if (!q.row) return undefined;
  return {
    stato: q.row.stato, updated_at: q.row.updated_at, titolo: q.template.titolo, versione: q.template.versione,
    answered: answeredCount(q.questions, q.row.risposte), total: q.questions.length,
  };
}

/**
 * Saves the execute form's answers on the task's questionnaire, created from the active template
 * on the first save. A questionnaire already completed (the task was sent back from review) is
 * kept as it was submitted: a new one starts from its answers, so each submission stays on record.
 * `complete` also checks every required question and closes the questionnaire.
 */
export async function saveTaskQuestionnaire(trx: Knex.Transaction, p: {
  codAzienda: string; actor: string; t: Pick<CddTaskRow, 'id' | 'cod_anagrafe'>; risposte: Answers; complete: boolean;
}) {
  const latest = await trx('questionari').where({ cdd_pratica_id: p.t.id }).orderBy('created_at', 'desc').first('cod_questionario', 'stato', 'risposte');
  let cod = latest?.cod_questionario as string | undefined;
  let carried: Answers = {};
  if (!latest || latest.stato === 'completato') {
    carried = latest?.risposte ?? {};
    cod = (await createQuestionnaire(trx, { codAzienda: p.codAzienda, actor: p.actor, codAnagrafe: p.t.cod_anagrafe, cddPratica: p.t.id })).cod_questionario;
  }
  return saveQuestionnaireAnswers(trx, { codAzienda: p.codAzienda, actor: p.actor, codQuestionario: cod!, risposte: { ...carried, ...p.risposte }, complete: p.complete });
}
