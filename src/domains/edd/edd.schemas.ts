import { z } from 'zod';
import { EDD_MOTIVI, EDD_STEP_TIPI } from '../../../workflows/edd/edd.contract';
import { EDD_STATES } from '../../../workflows/edd/edd.machine';
import { testo, testoOpzionale, testoOVuoto } from '../../http/text-field';
import { listParamsShape, listResponse } from '../../kit/list';
import { eddList } from './edd.list';
import { refersTo } from '../../db/references';

const empty = z.literal('').transform(() => undefined);
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
/** A form sends one value as a string and several as an array: both are a list ('' is an empty one, absent stays absent). */
const many = <T extends z.ZodType>(item: T) => z.preprocess((v) => (v === undefined ? undefined : v === '' ? [] : Array.isArray(v) ? v : [v]), z.array(item).optional());
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Data non valida (aaaa-mm-gg)')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'Data non valida');

/** One measure, as the add form and the API send it. */
export const eddStepSchema = z.object({
  tipo: z.enum(EDD_STEP_TIPI, { message: 'Scegli un tipo di misura valido' }),
  titolo: testo({ max: 200, min: 3, vuoto: 'Indica il titolo della misura' }),
  descrizione: testoOVuoto({ max: 5_000, multiline: true }),
  assegnatario: refersTo('utente', z.union([z.uuid({ message: 'Assegnatario non valido' }), z.literal('')]).optional().transform((v) => v || null)),
  scadenza: z.union([isoDate, z.literal('')]).optional().transform((v) => v || null),
});
export type EddStepForm = z.infer<typeof eddStepSchema>;

/** A new case: the customer, why, and which standard measures to keep (by type); the rest is proposed from the reasons. */
export const createEddSchema = z.object({
  cod_anagrafe: refersTo('soggetto', testo({ max: 64, vuoto: 'Indica il codice anagrafe del cliente' })),
  /** Omitted: the customer's own reasons (PEP, high-risk country, high risk class). */
  motivi: many(z.enum(EDD_MOTIVI, { message: 'Motivo non valido' })),
  descrizione: testoOVuoto({ max: 10_000, multiline: true }),
  /** The standard measures to open the case with; omitted: every measure the reasons call for. */
  misure: many(z.enum(EDD_STEP_TIPI, { message: 'Misura non valida' })),
  cdd_pratica_id: refersTo('cdd_pratica', z.union([z.uuid({ message: 'Pratica CDD non valida' }), z.literal('')]).optional().transform((v) => v || null)),
});
export type CreateEddInput = z.infer<typeof createEddSchema>;

export const completeStepSchema = z.object({
  esito: testo({ max: 5_000, multiline: true, vuoto: 'Scrivi l\'esito della misura' }),
  riferimento_evidenza: testoOpzionale({ max: 500 }),
});

export const submitSchema = z.object({});
export const supervisorSchema = z.object({});
export const rejectSchema = z.object({ motivazione: testo({ max: 5_000, multiline: true, vuoto: 'Indica il motivo del respingimento' }) });
export const closeSchema = z.object({ nota: testoOpzionale({ max: 5_000, multiline: true }) });

export const listEddQuery = z.object({
  stato: z.enum(EDD_STATES).optional().or(empty),
  motivo: z.enum(EDD_MOTIVI).optional().or(empty),
  cod_anagrafe: z.string().trim().max(64).optional().or(empty),
  aperti: bool.optional().or(empty),
  /** Only the cases waiting for the caller's approval (four-eyes: not those they submitted). */
  da_approvare: bool.optional().or(empty),
  q: z.string().trim().max(200).optional(),
  ...listParamsShape(eddList),
});
export type ListEddQuery = z.infer<typeof listEddQuery>;

const date = z.string();
export const eddRecordSchema = z.object({
  id: z.string(), cod_azienda: z.string(), cod_edd: z.string(), cod_anagrafe: z.string(), cdd_pratica_id: z.string().nullable(),
  motivi: z.array(z.string()), descrizione: z.string(), stato: z.enum(EDD_STATES), opened_by: z.string(),
  submitted_by: z.string().nullable(), submitted_at: date.nullable(), approved_by: z.string().nullable(), approved_at: date.nullable(),
  motivo_respingimento: z.string().nullable(), closed_by: z.string().nullable(), closed_at: date.nullable(), nota_chiusura: z.string().nullable(),
  workflow_id: z.string(), created_at: date, updated_at: date,
});

export const eddStepRecordSchema = z.object({
  id: z.string(), edd_id: z.string(), ordine: z.number(), tipo: z.string(), titolo: z.string(), descrizione: z.string(),
  assegnatario: z.string().nullable(), scadenza: date.nullable(), stato: z.string(), esito: z.string().nullable(),
  riferimento_evidenza: z.string().nullable(), completed_by: z.string().nullable(), completed_at: date.nullable(), created_by: z.string(), created_at: date,
});

export const eddListResponse = listResponse(eddRecordSchema);

const workflowLink = z.object({ id: z.string(), url: z.string() });
export const eddWriteResponse = eddRecordSchema.extend({ allowed_actions: z.array(z.string()), workflow: workflowLink, step: eddStepRecordSchema.optional() });
export const eddDetailResponse = eddRecordSchema.extend({ allowed_actions: z.array(z.string()), workflow: workflowLink, steps: z.array(eddStepRecordSchema) });
