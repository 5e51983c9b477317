import { z } from 'zod';

/**
 * Free text typed by a person (titles, descriptions, reasons, names): one rule for every form and
 * API body. Control characters show as boxes and mean nothing to a reader, so they are refused
 * (a multi-line field keeps its line breaks and tabs); a text of punctuation and spaces only, or
 * shorter than the field's minimum, says nothing and is refused too. Messages are Italian and go
 * next to the field (pages) or into the 422 problem's errors, named by the field (API).
 */

// C0 and C1 controls, DEL, zero-width and bidirectional controls, the BOM; line breaks and tab are handled per field.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]/u;
const LINE_BREAKS = /[\t\n\r]/;
const MEANINGFUL = /[\p{L}\p{N}]/u;

export const TEXT_MESSAGES = {
  controlli: 'Contiene caratteri di controllo non ammessi: scrivi solo testo',
  aCapo: 'Scrivi il testo su una sola riga, senza a capo né tabulazioni',
  senzaSenso: 'Scrivi un testo con lettere o cifre, non solo punteggiatura o spazi',
  troppoCorto: (min: number) => `Scrivi almeno ${min} caratteri`,
  troppoLungo: (max: number) => `Massimo ${max} caratteri`,
  obbligatorio: 'Campo obbligatorio',
} as const;

export interface TextFieldOptions {
  /** Longest text accepted, in characters. */
  max: number;
  /** Shortest meaningful text: a title of one character is not one (min: 3); 1 unless said, since any letter or digit may be a reason. */
  min?: number;
  /** Descriptions, notes and reasons: line breaks and tabs are kept. */
  multiline?: boolean;
  /** The message when the field is empty (required fields). */
  vuoto?: string;
}

/** Characters a person can count: "è" and an emoji are one each. */
const length = (s: string) => [...s].length;

/** The checks, in the order a person should read their message. */
function checked(opts: TextFieldOptions) {
  const min = opts.min ?? 1;
  return z.string()
    .refine((s) => !CONTROLS.test(s), { message: TEXT_MESSAGES.controlli, abort: true })
    .refine((s) => opts.multiline || !LINE_BREAKS.test(s), { message: TEXT_MESSAGES.aCapo, abort: true })
    .refine((s) => MEANINGFUL.test(s), { message: TEXT_MESSAGES.senzaSenso, abort: true })
    .refine((s) => length(s) >= min, { message: TEXT_MESSAGES.troppoCorto(min), abort: true })
    .refine((s) => length(s) <= opts.max, { message: TEXT_MESSAGES.troppoLungo(opts.max), abort: true });
}

/** A required text field: trimmed, then checked; empty gives the field's own message. */
export function testo(opts: TextFieldOptions) {
  const vuoto = opts.vuoto ?? TEXT_MESSAGES.obbligatorio;
  return z.string({ message: vuoto }).trim().min(1, { message: vuoto, abort: true }).max(opts.max, TEXT_MESSAGES.troppoLungo(opts.max)).pipe(checked(opts));
}

/** An optional text field: empty (or only spaces) is undefined; anything typed is checked like a required one. */
export function testoOpzionale(opts: TextFieldOptions) {
  return z.string().trim().max(opts.max, TEXT_MESSAGES.troppoLungo(opts.max)).transform((v) => v || undefined).pipe(checked(opts).optional()).optional();
}

/** An optional text field that is stored as an empty string when left empty (a description). */
export function testoOVuoto(opts: TextFieldOptions) {
  return z.string().trim().max(opts.max, TEXT_MESSAGES.troppoLungo(opts.max)).transform((v) => v || undefined).pipe(checked(opts).optional()).optional().transform((v) => v ?? '');
}

/** The same rule for text checked outside a schema (a value composed from several fields). */
export function textProblem(s: string, opts: TextFieldOptions): string | undefined {
  const r = checked(opts).safeParse(s.trim());
  return r.success ? undefined : r.error.issues[0]?.message;
}
