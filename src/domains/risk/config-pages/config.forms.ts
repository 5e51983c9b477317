import { z } from 'zod';
import { testo, testoOVuoto } from '../../../http/text-field';
import type { Condizione } from '../../../kit/conditions/condition.types';
import { CLASSI, FAMIGLIE } from '../risk.types';

/**
 * The configuration forms as the pages post them: every field a string. A form that fails comes
 * back with what was typed and a message next to each field; the engine's commands check again.
 */
const text = (label: string, max: number) => testo({ max, vuoto: `Indica ${label}` });
const optionalText = (max: number) => testoOVuoto({ max, multiline: true });
const CODICE = /^[a-z][a-z0-9_]{1,62}$/;
const codice = z.string({ error: 'Indica il codice' }).trim()
  .regex(CODICE, 'Il codice va scritto in minuscolo, con lettere, cifre e trattini bassi (almeno 2 caratteri, inizia con una lettera)');
const intIn = (min: number, max: number, label: string) => z.string({ error: `Indica ${label}` }).trim()
  .regex(/^-?\d+$/, `Indica ${label}: un numero intero`)
  .transform(Number)
  .refine((n) => n >= min && n <= max, `${label[0]!.toUpperCase()}${label.slice(1)} va da ${min} a ${max}`);

/** The page's message for a condition's problems: each one with its path ("tutti.1.valore: serve una lista"). */
export function conditionMessages(issues: readonly { path: readonly (string | number)[]; message: string }[]): string[] {
  return issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
}

export type ParsedCondition = { ok: true; condizione: Condizione } | { ok: false; errors: string[] };

/** The condition textarea: JSON first, then the language's own validation with the path of each problem. */
export function parseConditionText(raw: unknown, check: (c: unknown) => readonly { path: readonly (string | number)[]; message: string }[]): ParsedCondition {
  const source = typeof raw === 'string' ? raw.trim() : '';
  if (!source) return { ok: false, errors: ['Scrivi la condizione (JSON)'] };
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (err) {
    return { ok: false, errors: [`JSON non valido: ${(err as Error).message}`] };
  }
  const issues = check(value);
  return issues.length ? { ok: false, errors: conditionMessages(issues) } : { ok: true, condizione: value as Condizione };
}

export const ruleFormSchema = z.object({
  nome: text('il nome', 200),
  descrizione: optionalText(2000),
  fattore_id: z.string({ error: 'Scegli il fattore' }).trim().uuid('Scegli il fattore'),
  punti: intIn(-100, 100, 'il punteggio'),
  classe_minima: z.union([z.literal(''), z.enum(CLASSI, { error: 'Classe minima non valida' })]).optional().default('')
    .transform((v) => (v === '' ? null : v)),
  condizione: z.string().optional(),
  /** The edit form's checkbox: an unticked box sends nothing, which means "not active". */
  attiva: z.string().optional().transform((v) => v === '1'),
});
export const newRuleFormSchema = ruleFormSchema.omit({ attiva: true }).extend({ codice });

/** A factor's family is fixed once created (its rules and past scores are grouped by it). */
export const factorFormSchema = z.object({
  nome: text('il nome', 200),
  descrizione: optionalText(2000),
  attivo: z.string().optional().transform((v) => v === '1'),
});
export const newFactorFormSchema = z.object({
  codice, nome: text('il nome', 200), famiglia: z.enum(FAMIGLIE, { error: 'Scegli la famiglia di fattori' }), descrizione: optionalText(2000),
});

export const thresholdFormSchema = z.object({
  punteggio_min: intIn(0, 1000, 'il punteggio minimo'),
  livello_cdd: z.enum(['semplificata', 'ordinaria', 'rafforzata'], { error: 'Scegli il livello di adeguata verifica' }),
  revisione_mesi: intIn(1, 120, 'la frequenza di revisione in mesi'),
  approvazione: z.enum(['analyst', 'co', 'co_four_eyes'], { error: 'Scegli chi approva' }),
  descrizione: optionalText(2000),
});
export const newThresholdFormSchema = thresholdFormSchema.extend({ classe: z.enum(CLASSI, { error: 'Scegli la classe' }) });

export const policyTrialSchema = z.object({
  punteggio: z.string().trim().regex(/^-?\d{1,4}$/, 'Indica un punteggio intero').transform(Number),
  classe_minima: z.union([z.literal(''), z.enum(CLASSI)]).optional().default('').transform((v) => (v === '' ? null : v)),
});
