import { numero } from '../../http/format';
import type { KycQuestion, KycSubjectType } from './kyc-template.types';

/** A question as the execute form draws it (views/cdd/_questionario.njk). */
export interface QuestionView {
  id: string;
  /** The form field's name: prefixed, so a question id can never collide with _csrf or azione. */
  name: string;
  etichetta: string;
  tipo: KycQuestion['tipo'];
  obbligatoria: boolean;
  aiuto: string | undefined;
  opzioni: { valore: string; etichetta: string }[];
  /** What the control shows: the typed text after a refused save, else the stored answer as text. */
  value: string;
  error: string | undefined;
}

export const fieldName = (questionId: string) => `q_${questionId}`;

/** The questions of the template that apply to this subject type, in the template's order. */
export function applicableQuestions(domande: readonly KycQuestion[], tipoSoggetto: string | null | undefined): KycQuestion[] {
  return domande.filter((q) => !q.solo_per || (tipoSoggetto !== null && tipoSoggetto !== undefined && q.solo_per.includes(tipoSoggetto as KycSubjectType)));
}

/** A stored answer as the text of its control: yes/no as 'true'/'false', countries as "IT, FR". */
function answerAsText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return v.map(String).join(', ');
  return String(v);
}

/** "Obbligatoria se «Scopo del rapporto» è «Altro»": a conditional question says when it must be answered. */
function conditionHint(q: KycQuestion, all: readonly KycQuestion[]): string | undefined {
  if (!q.richiesta_se) return undefined;
  const other = all.find((x) => x.id === q.richiesta_se!.domanda);
  if (!other) return undefined;
  const values = q.richiesta_se.valori.map((v) => (typeof v === 'boolean' ? (v ? 'Sì' : 'No') : other.opzioni?.find((o) => o.valore === v)?.etichetta ?? v));
  return `Obbligatoria se «${other.etichetta}» è «${values.join('» o «')}».`;
}

/**
 * The form's questions: after a refused save `typed` holds what the user sent (kept as typed)
 * and `errors` the message of each question by its id; otherwise the stored answers fill the form.
 */
export function questionViews(
  questions: readonly KycQuestion[], stored: Record<string, unknown>, typed?: Record<string, unknown>, errors: Record<string, string> = {},
): QuestionView[] {
  return questions.map((q) => {
    const hints = [q.aiuto, conditionHint(q, questions)].filter((x): x is string => !!x);
    const name = fieldName(q.id);
    const raw = typed ? typed[name] : stored[q.id];
    return {
      id: q.id, name, etichetta: q.etichetta, tipo: q.tipo, obbligatoria: q.obbligatoria,
      aiuto: hints.length ? hints.join(' ') : undefined,
      opzioni: q.opzioni ?? [],
      value: typed ? (typeof raw === 'string' ? raw : answerAsText(raw)) : answerAsText(raw),
      error: errors[q.id],
    };
  });
}

/**
 * The answers of a posted form, typed for the questionnaire's validator: yes/no as booleans, a
 * number as a number (text that is not one stays text, so the validator names the question),
 * countries as a list of upper-case codes. An empty field (or a yes/no left unticked) is null:
 * the form holds every question, so clearing one removes its stored answer.
 */
export function answersFromForm(questions: readonly KycQuestion[], body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const q of questions) {
    const raw = body[fieldName(q.id)];
    const text = typeof raw === 'string' ? raw.trim() : '';
    if (text === '') { out[q.id] = null; continue; }
    if (q.tipo === 'booleano') out[q.id] = text === 'true' ? true : text === 'false' ? false : text;
    else if (q.tipo === 'numero') out[q.id] = /^-?\d+([.,]\d+)?$/.test(text) ? Number(text.replace(',', '.')) : text;
    else if (q.tipo === 'paesi') out[q.id] = text.split(/[\s,;]+/).filter(Boolean).map((c) => c.toUpperCase());
    else out[q.id] = text;
  }
  return out;
}

/** A stored answer in words, for the reviewer: the option's label, Sì/No, an Italian number, the list of countries. */
export function answerInWords(q: KycQuestion, v: unknown): string {
  if (v === undefined || v === null || v === '') return '';
  if (q.tipo === 'booleano') return v === true ? 'Sì' : v === false ? 'No' : String(v);
  if (q.tipo === 'scelta') return q.opzioni?.find((o) => o.valore === v)?.etichetta ?? String(v);
  if (q.tipo === 'numero' && typeof v === 'number') return numero(v);
  return answerAsText(v);
}

/** Every applicable question with its answer in words (empty when unanswered). */
export function answeredQuestions(questions: readonly KycQuestion[], stored: Record<string, unknown>) {
  return questions.map((q) => ({ id: q.id, etichetta: q.etichetta, risposta: answerInWords(q, stored[q.id]) }));
}

/** How many applicable questions have an answer. */
export const answeredCount = (questions: readonly KycQuestion[], stored: Record<string, unknown>) =>
  questions.filter((q) => answerAsText(stored[q.id]) !== '').length;
