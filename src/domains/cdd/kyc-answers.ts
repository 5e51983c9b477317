import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../config';
import type { FieldError } from '../../http/errors';
import type { KycQuestion, KycSubjectType } from './kyc-template.types';

const ISO2: ReadonlySet<string> = new Set(
  (JSON.parse(readFileSync(join(projectRoot, 'data', 'reference', 'iso3166-alpha2.json'), 'utf8')) as { codes: string[] }).codes,
);

export type Answers = Record<string, unknown>;

/** The template's questions that apply to a subject type, in the template's order. */
export const questionsFor = (domande: KycQuestion[], tipo: KycSubjectType | string | null) =>
  domande.filter((q) => !q.solo_per || (!!tipo && (q.solo_per as string[]).includes(tipo)));

/** An answer left empty (null, blank text, empty list) removes it: the question is unanswered. */
export const isBlank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

const MAX_TEXT = 5_000;

/** One answer checked against its question: the normalised value, or the message naming what is wrong. */
function checkAnswer(q: KycQuestion, v: unknown): { value: unknown } | { message: string } {
  switch (q.tipo) {
    case 'scelta': {
      const ok = typeof v === 'string' && (q.opzioni ?? []).some((o) => o.valore === v);
      return ok ? { value: v } : { message: `Scegli una delle opzioni: ${(q.opzioni ?? []).map((o) => o.valore).join(', ')}` };
    }
    case 'testo':
      if (typeof v !== 'string') return { message: 'La risposta deve essere un testo' };
      if (v.includes('\u0000')) return { message: 'Testo non valido' };
      if (v.trim().length > MAX_TEXT) return { message: `Massimo ${MAX_TEXT} caratteri` };
      return { value: v.trim() };
    case 'booleano':
      return typeof v === 'boolean' ? { value: v } : { message: 'La risposta deve essere sì o no (true/false)' };
    case 'numero':
      if (typeof v !== 'number' || !Number.isFinite(v)) return { message: 'La risposta deve essere un numero' };
      if (q.min !== undefined && v < q.min) return { message: `Il valore minimo è ${q.min}` };
      return { value: v };
    case 'paesi': {
      if (!Array.isArray(v) || v.some((c) => typeof c !== 'string')) return { message: 'La risposta deve essere un elenco di codici paese (IT, FR, …)' };
      const codes = [...new Set((v as string[]).map((c) => c.trim().toUpperCase()))];
      const bad = codes.filter((c) => !ISO2.has(c));
      return bad.length ? { message: `Codici paese non validi: ${bad.join(', ')}` } : { value: codes };
    }
  }
}

/** Is the question required given the other answers (its own flag, or a condition on another answer)? */
function required(q: KycQuestion, answers: Answers): boolean {
  if (q.obbligatoria) return true;
  if (!q.richiesta_se) return false;
  const other = answers[q.richiesta_se.domanda];
  return q.richiesta_se.valori.some((x) => x === other);
}

/**
 * Merges new answers into the stored ones, each checked against the template: an unknown
 * question, a question that does not apply to the subject type or a value of the wrong type is
 * an error naming the question (its id is the error's path). With `complete`, every required
 * question must be answered as well.
 */
export function mergeAnswers(p: {
  domande: KycQuestion[]; tipoSoggetto: string; stored: Answers; incoming: Answers; complete: boolean;
}): { answers: Answers; errors: FieldError[] } {
  const applicable = new Map(questionsFor(p.domande, p.tipoSoggetto).map((q) => [q.id, q]));
  const all = new Set(p.domande.map((q) => q.id));
  const errors: FieldError[] = [];
  const answers: Answers = { ...p.stored };
  for (const [id, v] of Object.entries(p.incoming)) {
    const q = applicable.get(id);
    if (!q) {
      errors.push({ path: id, message: all.has(id) ? 'Domanda non prevista per questo tipo di cliente' : 'Domanda sconosciuta' });
      continue;
    }
    if (isBlank(v)) { delete answers[id]; continue; }
    const r = checkAnswer(q, v);
    if ('message' in r) errors.push({ path: id, message: r.message });
    else answers[id] = r.value;
  }
  if (p.complete && !errors.length) {
    for (const q of applicable.values()) {
      if (required(q, answers) && isBlank(answers[q.id])) errors.push({ path: q.id, message: `Risposta obbligatoria: ${q.etichetta}` });
    }
  }
  return { answers, errors };
}
