import { z } from 'zod';
import { recordDecisionSchema } from '../../../kit/evaluators';
import { listParamsShape, listResponse } from '../../../kit/list';
import { CASE_PRIORITA } from '../../../../workflows/case/case.contract';
import { refersTo } from '../../../db/references';
import { testoOpzionale } from '../../../http/text-field';
import { dayField, isCalendarDay } from '../../../http/day-field';
import { kytEventsList } from './kyt.list';

/** Most events one POST carries. */
export const MAX_KYT_EVENTS_PER_REQUEST = 500;
/** How far ahead of the server's clock an event's time may be (clocks of other systems drift). */
const FUTURE_TOLERANCE_MS = 24 * 3_600_000;

const ADDRESS = /^[A-Za-z0-9:_-]{16,128}$/;
const address = (what: string) => z.string({ message: `Indica ${what}` }).trim()
  .regex(ADDRESS, `${what[0]!.toUpperCase()}${what.slice(1)}: da 16 a 128 caratteri tra lettere, cifre e : _ -`);

/** A crypto amount: a number or a decimal string with up to 18 decimals. */
const cryptoAmount = z.union([
  z.number({ message: "Indica l'importo" }).refine((v) => Number.isFinite(v) && v > 0, 'Deve essere maggiore di zero').transform((v) => String(v)),
  z.string().trim().regex(/^\d{1,20}(\.\d{1,18})?$/, "L'importo: un numero con al massimo 18 decimali").refine((v) => Number(v) > 0, 'Deve essere maggiore di zero'),
], { message: "Indica l'importo" });

const eurAmount = z.union([z.number(), z.string().trim().regex(/^\d{1,16}(\.\d{1,2})?$/, 'Controvalore in euro: un numero con al massimo due decimali').transform(Number)],
  { message: 'Indica il controvalore in euro' })
  .refine((v) => Number.isFinite(v) && v > 0, { message: 'Il controvalore in euro deve essere maggiore di zero', abort: true })
  .refine((v) => v <= 1_000_000_000_000, { message: 'Controvalore troppo grande', abort: true })
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, { message: 'Controvalore in euro: al massimo due decimali', abort: true });

const customerCode = (what: string) => z.string().trim().min(1, `Indica ${what}`).max(64, 'Massimo 64 caratteri');

/** One transfer as the tenant's systems send it. */
export const kytEventInput = z.object({
  chain: z.string({ message: 'Indica la blockchain (bitcoin, ethereum, tron...)' }).trim().toLowerCase()
    .regex(/^[a-z0-9][a-z0-9_-]{1,31}$/, 'Blockchain: da 2 a 32 caratteri tra lettere minuscole, cifre, _ e -'),
  hash: z.string({ message: "Indica l'hash della transazione" }).trim().regex(/^[A-Za-z0-9:_-]{8,128}$/, "Hash: da 8 a 128 caratteri tra lettere, cifre e : _ -"),
  indirizzo_da: address("l'indirizzo di origine"),
  indirizzo_a: address("l'indirizzo di destinazione"),
  asset: z.string({ message: "Indica la cripto-attività (BTC, ETH, USDT...)" }).trim().toUpperCase().regex(/^[A-Z0-9.]{2,16}$/, 'Cripto-attività: da 2 a 16 caratteri (BTC, ETH, USDT...)'),
  importo: cryptoAmount,
  importo_eur: eurAmount,
  data_ora: z.string({ message: "Indica la data e l'ora della transazione (ISO 8601 con fuso)" }).trim()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/, { message: "Data e ora ISO 8601 con fuso orario (2026-03-10T14:05:00Z)", abort: true })
    .refine((v) => !Number.isNaN(Date.parse(v)), { message: 'Data e ora inesistenti', abort: true })
    .refine((v) => Date.parse(v) >= Date.parse('2009-01-03T00:00:00Z'), { message: 'Data anteriore alla prima blockchain', abort: true })
    .refine((v) => Date.parse(v) <= Date.now() + FUTURE_TOLERANCE_MS, { message: 'Data e ora nel futuro', abort: true }),
  // Who the transfer is of, when the addresses do not say it (named by the platform's code or the source system's).
  cod_anagrafe: refersTo('cliente', customerCode('il cliente')).optional(),
  codice_esterno: customerCode('il codice esterno del cliente').optional(),
  // Whose side: entrata (the customer receives), uscita (the customer sends); needed when it cannot be told from the addresses.
  direzione: z.enum(['entrata', 'uscita'], { message: 'Direzione: entrata o uscita' }).optional(),
}).superRefine((e, ctx) => {
  if (e.indirizzo_da === e.indirizzo_a) ctx.addIssue({ code: 'custom', path: ['indirizzo_a'], message: "L'indirizzo di destinazione coincide con quello di origine" });
});
export type KytEventInput = z.output<typeof kytEventInput>;

/** One event, or `{ eventi: [...] }`: errors name `eventi.<index>.<field>` either way. */
export const submitKytEventsSchema = z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) && 'eventi' in v ? v : { eventi: [v] }),
  z.object({
    eventi: z.array(kytEventInput, { message: 'eventi: un elenco di eventi' }).min(1, 'Indica almeno un evento')
      .max(MAX_KYT_EVENTS_PER_REQUEST, `Al massimo ${MAX_KYT_EVENTS_PER_REQUEST} eventi per richiesta`),
  }),
);

export const kytEventRecord = z.object({
  id: z.string(), cod_evento: z.string(), cod_azienda: z.string(), chain: z.string(), hash: z.string(), direzione: z.enum(['entrata', 'uscita']),
  indirizzo_da: z.string(), indirizzo_a: z.string(), asset: z.string(), importo: z.string(), importo_eur: z.number(), data_ora: z.string(),
  giorno: z.string(), cod_anagrafe: z.string(), risolto_da: z.enum(['wallet', 'travel_rule', 'cod_anagrafe', 'codice_esterno']),
  cod_decisione: z.string().nullable(), created_by: z.string(), created_at: z.string(),
});

export const submitKytEventsResponse = z.object({
  inseriti: z.number().int(),
  gia_presenti: z.number().int(),
  eventi: z.array(z.object({
    indice: z.number().int(),
    esito: z.enum(['inserito', 'gia_presente']),
    evento: kytEventRecord,
    decisione: recordDecisionSchema,
  })),
});

const empty = z.literal('').transform(() => undefined);
export const listKytEventsQuery = z.object({
  cod_anagrafe: customerCode('il cliente').optional().or(empty),
  chain: z.string().trim().toLowerCase().regex(/^[a-z0-9][a-z0-9_-]{1,31}$/, 'Blockchain non valida').optional().or(empty),
  dal: dayField('Dal').optional().or(empty),
  al: dayField('Al').optional().or(empty),
  ...listParamsShape(kytEventsList),
}).superRefine((q, ctx) => {
  if (q.dal && q.al && isCalendarDay(q.dal) && isCalendarDay(q.al) && q.dal > q.al) ctx.addIssue({ code: 'custom', path: ['al'], message: 'La data finale precede quella iniziale' });
});
export type ListKytEventsQuery = z.infer<typeof listKytEventsQuery>;
export const kytEventListResponse = listResponse(kytEventRecord);

export const escalateKytSchema = z.object({
  motivazione: testoOpzionale({ max: 5_000, multiline: true }),
  priorita: z.enum(CASE_PRIORITA, { message: 'Priorità: bassa, media, alta o critica' }).optional().or(empty),
});
