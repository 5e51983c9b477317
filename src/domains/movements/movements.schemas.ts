import { z } from 'zod';
import { recordDecisionSchema } from '../../kit/evaluators';
import { testo, testoOpzionale } from '../../http/text-field';
import { listParamsShape, listResponse } from '../../kit/list';
import { isCountryCode } from './countries';
import { movementsList } from './movements.list';
import { SEGNI } from './movements.labels';
import { refersTo } from '../../db/references';

/** Most movements one POST carries: larger loads go through the import (a workflow with progress). */
export const MAX_MOVEMENTS_PER_REQUEST = 1_000;
/** The months the table can hold (the migration's CHECK on data_operazione). */
const FIRST_DAY = '2000-01-01';
const LAST_DAY = '2099-12-31';
/**
 * Largest amount accepted: a thousand billion. The column (numeric(18, 2)) holds more, but amounts
 * travel as JavaScript numbers, whose cents are exact only below about 9 * 10^13.
 */
const MAX_AMOUNT = 1_000_000_000_000;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const isCalendarDate = (s: string) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};
/** Today plus a year: a later operation date is a typo, and would make a partition for nothing. */
const latestOperationDay = () => new Date(Date.now() + 366 * 86_400_000).toISOString().slice(0, 10);

const day = (what: string) => z.string({ message: `Indica ${what} (AAAA-MM-GG)` }).trim()
  .regex(ISO_DATE, { message: `${what[0]!.toUpperCase()}${what.slice(1)} nel formato AAAA-MM-GG`, abort: true })
  .refine(isCalendarDate, { message: 'Data inesistente', abort: true })
  .refine((s) => s >= FIRST_DAY && s <= LAST_DAY, { message: `Data fuori dall'intervallo ammesso (${FIRST_DAY.slice(0, 4)}–${LAST_DAY.slice(0, 4)})`, abort: true });

/** An amount in JSON: a number, or a decimal string ("1234.56") as exports of other systems write it. */
const amount = (label: string) => z.union([
  z.number({ message: `Indica ${label}` }),
  z.string().trim().regex(/^\d{1,16}(\.\d{1,2})?$/, `${label[0]!.toUpperCase()}${label.slice(1)}: un numero con al massimo due decimali`).transform(Number),
], { message: `Indica ${label}` })
  .refine((v) => Number.isFinite(v) && v > 0, { message: 'Deve essere maggiore di zero', abort: true })
  .refine((v) => v <= MAX_AMOUNT, { message: 'Importo troppo grande', abort: true })
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, { message: 'Al massimo due decimali', abort: true });

/** A time of day as HH:MM or HH:MM:SS (24 hours), stored as HH:MM:SS. */
const TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;
const timeOfDay = z.string({ message: "Ora dell'operazione: HH:MM o HH:MM:SS" }).trim()
  .regex(TIME, "Ora dell'operazione: HH:MM o HH:MM:SS (da 00:00 a 23:59:59)")
  .transform((s) => (s.length === 5 ? `${s}:00` : s));

const code = (what: string) => z.string({ message: `Indica ${what}` }).trim().min(1, { message: `Indica ${what}`, abort: true })
  .max(64, { message: 'Massimo 64 caratteri', abort: true }).regex(/^[A-Za-z0-9._\-/]+$/, 'Solo lettere, cifre e . _ - /');

/** One movement as the API and the import accept it. */
export const movementInputSchema = z.object({
  cod_rapporto: refersTo('rapporto', code('il rapporto')),
  // When absent, the relationship's holder; when given, one of the relationship's subjects.
  cod_anagrafe: refersTo('soggetto', code('il soggetto').optional()),
  data_operazione: day("la data dell'operazione")
    .refine((s) => s <= latestOperationDay(), "La data dell'operazione non può essere oltre un anno nel futuro"),
  // The time of day, when the source system has it (local time, as the source gives it).
  ora_operazione: timeOfDay.optional(),
  data_valuta: day('la data valuta').optional(),
  importo: amount("l'importo"),
  valuta: z.string().trim().toUpperCase().regex(/^[A-Z]{3}$/, 'Valuta: codice ISO di tre lettere (EUR, USD...)').optional().default('EUR'),
  // The euro equivalent; for euro movements the amount itself.
  importo_eur: amount("il controvalore in euro").optional(),
  segno: z.enum(SEGNI, { message: 'Segno: entrata o uscita' }),
  causale: testoOpzionale({ max: 200 }),
  canale: testoOpzionale({ max: 50 }),
  contanti: z.boolean({ message: 'Contanti: true o false' }).optional().default(false),
  controparte_nome: testoOpzionale({ max: 200 }),
  controparte_conto: testoOpzionale({ max: 64 }),
  controparte_paese: z.string().trim().toUpperCase().refine(isCountryCode, 'Paese: codice ISO 3166 di due lettere').optional(),
  chiave_esterna: testo({ max: 200, vuoto: 'Indica la chiave esterna (identifica il movimento nel sistema di origine)' }),
  // Who executed it: any subject of the tenant (a delegate, a legal representative, a third party at the counter).
  cod_anagrafe_esecutore: refersTo('soggetto', code("l'esecutore").optional()),
}).superRefine((m, ctx) => {
  if (m.valuta !== 'EUR' && m.importo_eur === undefined) {
    ctx.addIssue({ code: 'custom', path: ['importo_eur'], message: 'Indica il controvalore in euro per un importo in valuta estera' });
  }
  if (m.valuta === 'EUR' && m.importo_eur !== undefined && m.importo_eur !== m.importo) {
    ctx.addIssue({ code: 'custom', path: ['importo_eur'], message: "Per un importo in euro il controvalore è l'importo stesso" });
  }
}).transform((m) => ({ ...m, importo_eur: m.importo_eur ?? m.importo }));

export type MovementInput = z.input<typeof movementInputSchema>;
export type ValidMovement = z.output<typeof movementInputSchema>;

/**
 * The body of POST /api/movimenti: `{ movimenti: [...] }`, or one movement on its own (read as a
 * batch of one, so every error names `movimenti.<index>.<field>`).
 */
export const createMovementsSchema = z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) && 'movimenti' in v ? v : { movimenti: [v] }),
  z.object({
    movimenti: z.array(movementInputSchema, { message: 'movimenti: un elenco di movimenti' })
      .min(1, 'Indica almeno un movimento')
      .max(MAX_MOVEMENTS_PER_REQUEST, `Al massimo ${MAX_MOVEMENTS_PER_REQUEST} movimenti per richiesta: per carichi più grandi usa l'importazione`),
  }),
);

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const blank = z.literal('').transform(() => undefined);

export const listMovementsQuery = z.object({
  cod_anagrafe: code('il soggetto').optional().or(blank),
  cod_rapporto: code('il rapporto').optional().or(blank),
  cod_anagrafe_esecutore: code("l'esecutore").optional().or(blank),
  dal: day('la data iniziale').optional().or(blank),
  al: day('la data finale').optional().or(blank),
  importo_min: amount("l'importo minimo").optional().or(blank),
  importo_max: amount("l'importo massimo").optional().or(blank),
  contanti: bool.optional().or(blank),
  segno: z.enum(SEGNI, { message: 'Segno: entrata o uscita' }).optional().or(blank),
  ...listParamsShape(movementsList),
}).superRefine((q, ctx) => {
  if (q.dal && q.al && q.al < q.dal) ctx.addIssue({ code: 'custom', path: ['al'], message: 'La data finale precede la data iniziale' });
  if (q.importo_min !== undefined && q.importo_max !== undefined && q.importo_max < q.importo_min) {
    ctx.addIssue({ code: 'custom', path: ['importo_max'], message: "L'importo massimo è minore del minimo" });
  }
});
export type ListMovementsQuery = z.infer<typeof listMovementsQuery>;

export const movementRecordSchema = z.object({
  id: z.string(),
  cod_azienda: z.string(),
  cod_rapporto: z.string(),
  cod_anagrafe: z.string(),
  data_operazione: z.string(),
  ora_operazione: z.string().nullable(),
  data_valuta: z.string().nullable(),
  importo: z.number(),
  valuta: z.string(),
  importo_eur: z.number(),
  segno: z.enum(SEGNI),
  causale: z.string().nullable(),
  canale: z.string().nullable(),
  contanti: z.boolean(),
  controparte_nome: z.string().nullable(),
  controparte_conto: z.string().nullable(),
  controparte_paese: z.string().nullable(),
  chiave_esterna: z.string(),
  cod_anagrafe_esecutore: z.string().nullable(),
  import_id: z.string().nullable(),
  created_by: z.string(),
  created_at: z.string(),
});

export const movementListResponse = listResponse(movementRecordSchema);

/** The answer to a POST: counts, and for each item (in the order sent) its movement and whether it was new. */
export const createMovementsResponse = z.object({
  inseriti: z.number().int(),
  gia_presenti: z.number().int(),
  movimenti: z.array(z.object({
    indice: z.number().int(),
    chiave_esterna: z.string(),
    id: z.string(),
    data_operazione: z.string(),
    esito: z.enum(['inserito', 'gia_presente']),
    // The monitoring's decision on a movement this request wrote (src/kit/evaluators.ts); absent when no area evaluates movements.
    decisione: recordDecisionSchema.optional(),
  })),
});
