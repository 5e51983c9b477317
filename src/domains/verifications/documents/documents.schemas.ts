import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { projectRoot } from '../../../config';
import { testo, testoOpzionale } from '../../../http/text-field';
import { listParamsShape, listResponse } from '../../../kit/list';
import { STATI_DOCUMENTO, TIPI_DOCUMENTO } from '../../records';
import { ESITI_DOCUMENTO } from '../verifications.vocabulary';
import { documentRecordsList } from './documents.list';
import { parseMrz } from './mrz';
import { refersTo } from '../../../db/references';

/** The document records API's fields (multipart forms and JSON), with Italian messages named by field, and its answers. */

const ISO2 = new Set((JSON.parse(readFileSync(join(projectRoot, 'data', 'reference', 'iso3166-alpha2.json'), 'utf8')) as { codes: string[] }).codes);
const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const isoDate = (message = 'Data non valida (AAAA-MM-GG)') =>
  z.preprocess(blank, z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message, abort: true })
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), message).optional());
const country = z.preprocess((v) => (typeof v === 'string' ? v.trim().toUpperCase() || undefined : v),
  z.string().refine((c) => ISO2.has(c), 'Indica un paese valido (codice ISO a due lettere, es. IT)').optional());
const code = (message: string) => z.string({ message }).trim().min(1, message).max(64, message).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, message);

/**
 * The machine-readable zone as typed or pasted: its shape and characters are checked here (a zone
 * of another shape is a typing error to fix now); its check digits are the verification's.
 */
const mrz = z.preprocess(blank, z.string().max(200, 'Massimo 200 caratteri').superRefine((v, ctx) => {
  const r = parseMrz(v);
  if (!r.ok) ctx.addIssue({ code: 'custom', message: r.errore });
}).optional());

const IDENTITY = ['carta_identita', 'passaporto', 'patente', 'permesso_soggiorno'];

/** The document's own fields (multipart: every value a string). */
const documentFields = {
  numero: testoOpzionale({ max: 50 }),
  autorita_rilascio: testoOpzionale({ max: 200 }),
  paese_rilascio: country,
  data_rilascio: isoDate(),
  data_scadenza: isoDate(),
  mrz,
};

const dates = (v: { data_rilascio?: string | undefined; data_scadenza?: string | undefined }, ctx: z.RefinementCtx) => {
  if (v.data_rilascio && v.data_scadenza && v.data_scadenza < v.data_rilascio) {
    ctx.addIssue({ code: 'custom', path: ['data_scadenza'], message: 'La data di scadenza non può precedere quella di rilascio' });
  }
};

export const uploadDocumentSchema = z.object({
  cod_anagrafe: refersTo('soggetto', code('Indica il soggetto titolare del documento')),
  tipo: z.enum(TIPI_DOCUMENTO, { message: 'Scegli un tipo di documento valido' }),
  ...documentFields,
}).superRefine((v, ctx) => {
  const identity = IDENTITY.includes(v.tipo);
  if (identity && !v.numero) ctx.addIssue({ code: 'custom', path: ['numero'], message: 'Indica il numero del documento' });
  if (identity && !v.data_scadenza) ctx.addIssue({ code: 'custom', path: ['data_scadenza'], message: 'Indica la data di scadenza del documento' });
  dates(v, ctx);
});
export type UploadDocumentBody = z.infer<typeof uploadDocumentSchema>;

/** A replacement: why, and the new copy's fields (an omitted field keeps the current value). */
export const replaceDocumentSchema = z.object({
  motivo: testo({ max: 1_000, multiline: true, min: 3, vuoto: 'Indica il motivo della sostituzione' }),
  ...documentFields,
}).superRefine(dates);
export type ReplaceDocumentBody = z.infer<typeof replaceDocumentSchema>;

export const verifyDocumentSchema = z.object({}).strict();

export const listDocumentRecordsQuery = z.object({
  cod_anagrafe: z.preprocess(blank, code('Codice non valido').optional()),
  tipo: z.preprocess(blank, z.enum(TIPI_DOCUMENTO, { message: 'Tipo di documento non valido' }).optional()),
  stato: z.preprocess(blank, z.enum(STATI_DOCUMENTO, { message: 'Stato non valido' }).optional()),
  esito_verifica: z.preprocess(blank, z.enum(ESITI_DOCUMENTO, { message: 'Esito non valido' }).optional()),
  q: z.preprocess(blank, z.string().trim().max(100, 'Massimo 100 caratteri').optional()),
  ...listParamsShape(documentRecordsList),
});
export type ListDocumentRecordsQuery = z.infer<typeof listDocumentRecordsQuery>;

export const downloadQuery = z.object({
  versione: z.preprocess(blank, z.coerce.number({ message: 'Versione non valida' }).int('Versione non valida').min(1, 'Versione non valida').optional()),
});

// Answers

const s = z.string();
const ns = z.string().nullable();
export const documentCheckRecord = z.object({
  controllo: s, esito: z.enum(['ok', 'ko', 'non_applicabile']), messaggio: s, dettagli: z.record(z.string(), z.unknown()).optional(),
});
export const documentVersionRecord = z.object({
  versione: z.number().int(), sha256: s, nome_file: s, mime: s, dimensione: z.number().nullable(), motivo: ns,
  dati: z.record(z.string(), z.unknown()), created_by: s, created_at: s,
});
export const documentListItem = z.object({
  cod_documento: s, versione: z.number().int(), cod_anagrafe: s, tipo: s, numero: ns, data_rilascio: ns, data_scadenza: ns, stato: s,
  esito_verifica: z.enum(ESITI_DOCUMENTO), nome_file: ns, mime: ns, dimensione: z.number().nullable(), verificato_at: ns, created_by: s, created_at: s, updated_at: s,
});
export const documentListResponse = listResponse(documentListItem);
export const documentRecordResponse = documentListItem.extend({
  autorita_rilascio: ns, paese_rilascio: ns, mrz: ns, sha256: ns, verifica: z.array(documentCheckRecord), verificato_by: ns, updated_by: ns,
  versioni: z.array(documentVersionRecord),
});
