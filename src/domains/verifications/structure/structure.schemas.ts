import { z } from 'zod';
import { testo, testoOpzionale } from '../../../http/text-field';
import { TIPI_ARCO, TIPI_NODO } from '../verifications.vocabulary';
import { refersTo } from '../../../db/references';
import { UBO_WARNING_CODES } from './ubo.types';

/**
 * The structure's request and response bodies (API and pages share them). Percentages are numbers
 * 0..100 with at most 4 decimals (numeric(7,4)); a page sends them as text with a comma or a dot.
 */
const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const number = (v: unknown) => (typeof v === 'string' ? Number(v.trim().replace(',', '.')) : v);
const fourDecimals = (v: number) => Math.abs(v * 10_000 - Math.round(v * 10_000)) < 1e-6;
const percent = (min: 'gt0' | 'ge0') => z.preprocess((v) => number(blank(v)), z.number({ error: 'Indica una percentuale (numero da 0 a 100)' })
  .refine((v) => (min === 'gt0' ? v > 0 : v >= 0), min === 'gt0' ? 'La percentuale deve essere maggiore di 0' : 'La percentuale non può essere negativa')
  .refine((v) => v <= 100, 'La percentuale non può superare 100')
  .refine(fourDecimals, 'Al massimo 4 decimali')).optional();
const uuid = (what: string) => z.preprocess(blank, z.uuid({ error: `Scegli ${what}` }));
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Data non valida (aaaa-mm-gg)')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'Data non valida')
  .refine((v) => v <= new Date().toISOString().slice(0, 10), 'La data non può essere futura');

export const createNodeSchema = z.object({
  tipo: z.enum(TIPI_NODO, { error: 'Scegli il tipo di soggetto' }),
  denominazione: testo({ max: 300, vuoto: 'Indica il nome o la denominazione' }),
  codice_fiscale: z.preprocess((v) => (typeof blank(v) === 'string' ? (v as string).trim().toUpperCase() : blank(v)),
    z.string().regex(/^[A-Z0-9]{6,32}$/, 'Codice fiscale o identificativo fiscale non valido (lettere e cifre)').optional()),
  paese: z.preprocess((v) => (typeof blank(v) === 'string' ? (v as string).trim().toUpperCase() : blank(v)),
    z.string().regex(/^[A-Z]{2}$/, 'Paese non valido: codice ISO a due lettere (es. IT)').optional()),
  data_nascita: z.preprocess(blank, isoDate.optional()),
  cod_anagrafe: refersTo('soggetto', z.preprocess(blank, z.string().trim().max(64, 'Codice anagrafe non valido').optional())),
}).strict().superRefine((v, ctx) => {
  if (v.data_nascita && v.tipo !== 'persona_fisica') ctx.addIssue({ code: 'custom', path: ['data_nascita'], message: 'La data di nascita si indica solo per una persona fisica' });
});
export type CreateNodeBody = z.infer<typeof createNodeSchema>;

export const createEdgeSchema = z.object({
  da_nodo_id: refersTo('nodo_struttura', uuid('il soggetto che detiene, controlla o ricopre il ruolo')),
  a_nodo_id: refersTo('nodo_struttura', uuid('l\'entità partecipata, controllata o rappresentata')),
  tipo: z.enum(TIPI_ARCO, { error: 'Scegli il tipo di legame' }),
  percentuale: percent('gt0'),
  percentuale_voti: percent('ge0'),
  note: testoOpzionale({ max: 1_000, multiline: true }),
}).strict().superRefine((v, ctx) => {
  if (v.da_nodo_id && v.da_nodo_id === v.a_nodo_id) ctx.addIssue({ code: 'custom', path: ['a_nodo_id'], message: 'Un soggetto non può essere collegato a sé stesso' });
  if (v.tipo === 'partecipazione' && v.percentuale === undefined) ctx.addIssue({ code: 'custom', path: ['percentuale'], message: 'Indica la percentuale del capitale detenuta' });
  if (v.tipo !== 'partecipazione' && v.percentuale !== undefined) ctx.addIssue({ code: 'custom', path: ['percentuale'], message: 'La percentuale si indica solo per una partecipazione al capitale' });
  if (v.tipo !== 'partecipazione' && v.percentuale_voti !== undefined) ctx.addIssue({ code: 'custom', path: ['percentuale_voti'], message: 'I diritti di voto si indicano solo per una partecipazione al capitale' });
});
export type CreateEdgeBody = z.infer<typeof createEdgeSchema>;

export const calculateSchema = z.object({
  soglia: z.preprocess((v) => number(blank(v)), z.number({ error: 'Indica la soglia (percentuale)' })
    .gt(0, 'La soglia deve essere maggiore di 0').lt(100, 'La soglia deve essere minore di 100').refine(fourDecimals, 'Al massimo 4 decimali')).optional().default(25),
}).strict();

const nodeSchema = z.object({
  id: z.string(), tipo: z.enum(TIPI_NODO), denominazione: z.string(), codice_fiscale: z.string().nullable(), paese: z.string().nullable(),
  data_nascita: z.string().nullable(), cod_anagrafe: z.string().nullable(), radice: z.boolean(), fonte: z.string(), created_by: z.string(), created_at: z.string(),
});
const edgeSchema = z.object({
  id: z.string(), da_nodo_id: z.string(), a_nodo_id: z.string(), tipo: z.enum(TIPI_ARCO), percentuale: z.number().nullable(), percentuale_voti: z.number().nullable(),
  note: z.string().nullable(), created_by: z.string(), created_at: z.string(),
});
const discrepancySchema = z.object({ tipo: z.string(), denominazione: z.string(), codice_fiscale: z.string().nullable(), messaggio: z.string() }).loose();
/** A gap that leaves the owners incomplete (ubo.warnings.ts): its code, the methods affected, each entity concerned. */
const warningSchema = z.object({
  codice: z.enum(UBO_WARNING_CODES), metodi: z.array(z.enum(['italiano', 'moltiplicativo'])), riferimento: z.string(), messaggio: z.string(),
  soggetti: z.array(z.object({
    nodo_id: z.string(), denominazione: z.string(), tipo: z.enum(TIPI_NODO), codice_fiscale: z.string().nullable(), cod_anagrafe: z.string().nullable(),
    cliente: z.boolean(), ruoli: z.array(z.enum(['rappresentante_legale', 'amministratore', 'direttore'])), messaggio: z.string(),
  })),
});
/** The engine's result as stored (ubo.types UboResult); `avvisi` is declared, absent in results stored before it existed. */
const resultSchema = z.object({ avvisi: z.array(warningSchema).optional() }).loose();
const calculationSchema = z.object({
  id: z.string(), soglia: z.number(), risultato: resultSchema, discrepanze: z.array(discrepancySchema), nodi: z.number(), archi: z.number(),
  created_by: z.string(), created_at: z.string(),
});

export const nodeResponse = nodeSchema;
export const edgeResponse = edgeSchema;
export const calculationResponse = calculationSchema.extend({ discrepanza_ubo: z.boolean() });
export const structureResponse = z.object({
  cod_verifica: z.string(), nodi: z.array(nodeSchema), archi: z.array(edgeSchema), calcolo: calculationSchema.nullable(),
  discrepanza_ubo: z.boolean(), discrepanze_ubo: z.array(discrepancySchema),
});
