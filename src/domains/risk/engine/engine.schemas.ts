import { z } from 'zod';
import type { Condizione } from '../../../kit/conditions/condition.types';
import { CLASSI, FAMIGLIE } from '../risk.types';
import { validateRuleCondition } from './engine.catalogue';
import { refersTo } from '../../../db/references';

/** Input schemas of the model's commands and routes (Italian messages, one per field). */

const CODICE = /^[a-z][a-z0-9_]{1,62}$/;
const codice = z.string({ error: 'Indica il codice' }).trim().regex(CODICE, 'Codice: lettere minuscole, cifre e _ (da 2 a 63 caratteri, inizia con una lettera)');
const nome = z.string({ error: 'Indica il nome' }).trim().min(1, 'Indica il nome').max(200, 'Al massimo 200 caratteri');
const descrizione = z.string().trim().max(2000, 'Al massimo 2000 caratteri');
const uuid = (what: string) => z.string({ error: `Indica ${what}` }).uuid(`${what[0]!.toUpperCase()}${what.slice(1)} non valido`);

export const famigliaSchema = z.enum(FAMIGLIE, { error: `Famiglia: ${FAMIGLIE.join(', ')}` });
export const classeSchema = z.enum(CLASSI, { error: `Classe: ${CLASSI.join(', ')}` });

/** A rule's condition: the language's checks and the risk catalogue's fields and lists, each issue at its path. */
export const riskConditionSchema = z.unknown().superRefine((value, ctx) => {
  if (value === undefined) { ctx.addIssue({ code: 'custom', message: 'Indica la condizione' }); return; }
  for (const i of validateRuleCondition(value)) ctx.addIssue({ code: 'custom', path: i.path, message: i.message });
}).transform((v) => v as Condizione)
  .meta({ description: 'A condition of the rule language (docs/conditions.md) over the risk profile (docs/risk.md)' });

export const factorCreateSchema = z.object({ codice, nome, famiglia: famigliaSchema, descrizione: descrizione.optional().default('') });
export const factorUpdateSchema = z.object({ nome: nome.optional(), descrizione: descrizione.optional(), attivo: z.boolean({ error: 'Attivo: vero o falso' }).optional() });

const punti = z.number({ error: 'Indica i punti (un numero intero)' }).int('Punti: un numero intero').min(-100, 'Punti: almeno -100').max(100, 'Punti: al massimo 100');
const ordine = z.number({ error: 'Ordine: un numero intero' }).int('Ordine: un numero intero').min(0, 'Ordine: almeno 0').max(100_000, 'Ordine: al massimo 100000');

export const ruleCreateSchema = z.object({
  fattore_id: refersTo('rischio_fattore', uuid('il fattore')),
  codice, nome, descrizione: descrizione.optional().default(''),
  condizione: riskConditionSchema,
  punti,
  classe_minima: classeSchema.nullable().optional().default(null),
  attiva: z.boolean({ error: 'Attiva: vero o falso' }).optional().default(true),
  ordine: ordine.optional(),
});
export const ruleUpdateSchema = z.object({
  fattore_id: refersTo('rischio_fattore', uuid('il fattore').optional()),
  nome: nome.optional(), descrizione: descrizione.optional(),
  condizione: riskConditionSchema.optional(),
  punti: punti.optional(),
  classe_minima: classeSchema.nullable().optional(),
  attiva: z.boolean({ error: 'Attiva: vero o falso' }).optional(),
  ordine: ordine.optional(),
});

const punteggioMin = z.number({ error: 'Indica il punteggio minimo' }).int('Punteggio minimo: un numero intero').min(0, 'Punteggio minimo: almeno 0').max(1000, 'Punteggio minimo: al massimo 1000');
const livello = z.enum(['semplificata', 'ordinaria', 'rafforzata'], { error: 'Livello di adeguata verifica: semplificata, ordinaria o rafforzata' });
const mesi = z.number({ error: 'Indica i mesi' }).int('Mesi: un numero intero').min(1, 'Almeno 1 mese').max(120, 'Al massimo 120 mesi');
const approvazione = z.enum(['analyst', 'co', 'co_four_eyes'], { error: 'Approvazione: analyst, co o co_four_eyes' });

export const thresholdCreateSchema = z.object({
  classe: classeSchema, punteggio_min: punteggioMin, livello_cdd: livello, revisione_mesi: mesi, approvazione, descrizione: descrizione.optional().default(''),
});
export const thresholdUpdateSchema = z.object({
  punteggio_min: punteggioMin.optional(), livello_cdd: livello.optional(), revisione_mesi: mesi.optional(), approvazione: approvazione.optional(), descrizione: descrizione.optional(),
});
export const draftCreateSchema = z.object({ descrizione: descrizione.optional().default('') });

export type FactorCreate = z.input<typeof factorCreateSchema>;
export type FactorUpdate = z.input<typeof factorUpdateSchema>;
export type RuleCreate = z.input<typeof ruleCreateSchema>;
export type RuleUpdate = z.input<typeof ruleUpdateSchema>;
export type ThresholdCreate = z.input<typeof thresholdCreateSchema>;
export type ThresholdUpdate = z.input<typeof thresholdUpdateSchema>;
