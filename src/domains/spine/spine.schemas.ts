import { z } from 'zod';
import { refersTo } from '../../db/references';
import { testo, testoOpzionale } from '../../http/text-field';
import { listParamsShape, listResponse } from '../../kit/list';
import { spineList } from './spine.list';

/** The document spine's fields and answers (docs/document-spine.md), with Italian messages named by field. */

const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const code = (message: string) => z.string({ message }).trim().min(1, message).max(64, message).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, message);

/** The multipart fields of an upload (the file aside): its owner is required. */
export const uploadSpineSchema = z.object({
  cod_anagrafe: refersTo('soggetto', code('Indica il soggetto a cui appartiene il documento (codice in anagrafe)')),
  descrizione: testoOpzionale({ max: 500 }),
});
export type UploadSpineBody = z.infer<typeof uploadSpineSchema>;

export const holdSpineSchema = z.object({
  blocco: z.boolean({ message: 'Indica se applicare (true) o rimuovere (false) il blocco legale' }),
  motivo: testo({ max: 1_000, multiline: true, min: 3, vuoto: 'Indica il motivo del blocco legale o della sua rimozione' }),
});
export type HoldSpineBody = z.infer<typeof holdSpineSchema>;

/** The page's form sends strings. */
export const holdFormSchema = z.object({
  blocco: z.enum(['si', 'no'], { message: 'Scegli se applicare o rimuovere il blocco' }).transform((v) => v === 'si'),
  motivo: holdSpineSchema.shape.motivo,
});

export const listSpineQuery = z.object({
  tipo: z.preprocess(blank, z.string().regex(/^[a-z_]{1,40}$/, 'Tipo di documento non valido').optional()),
  cod_anagrafe: z.preprocess(blank, code('Codice del soggetto non valido').optional()),
  blocco: z.preprocess(blank, z.enum(['si', 'no'], { message: 'Blocco legale: si o no' }).optional()),
  conservazione: z.preprocess(blank, z.enum(['scaduta', 'aperta'], { message: 'Conservazione: scaduta o aperta' }).optional()),
  q: z.preprocess(blank, z.string().trim().max(100, 'Massimo 100 caratteri').optional()),
  ...listParamsShape(spineList),
});
export type ListSpineQuery = z.infer<typeof listSpineQuery>;

// Answers

const s = z.string();
const ns = z.string().nullable();
export const retentionRecord = z.discriminatedUnion('stato', [
  z.object({ stato: z.literal('aperta'), rapporti_aperti: z.number().int() }),
  z.object({ stato: z.literal('determinata'), fino: s, base: z.enum(['fine_rapporti', 'data_documento']), da: s }),
]).meta({ description: 'Conservazione (art. 31 d.lgs. 231/2007): dieci anni dalla fine dell\'ultimo rapporto; aperta (non determinata) finché un rapporto è in essere' });

export const spineListItem = z.object({
  cod_spine: s, tipo: s, sha256: s, nome_file: s, mime: s, dimensione: z.number().int(), cod_anagrafe: ns,
  record_tipo: s, record_id: s, record_codice: ns, descrizione: s, blocco_legale: z.boolean(), blocco_motivo: ns,
  conserva_fino: ns.meta({ description: 'Data fino a cui il documento va conservato; null mentre un rapporto del cliente è in essere' }),
  created_by: s, created_at: s,
});
export const spineListResponse = listResponse(spineListItem);

export const spineEntryResponse = spineListItem.extend({
  blocco_by: ns, blocco_at: ns, conservazione: retentionRecord,
  citazioni: z.array(z.object({ cod_spine: s, tipo: s, record_tipo: s, record_id: s, record_codice: ns, cod_anagrafe: ns, created_at: s })),
});
