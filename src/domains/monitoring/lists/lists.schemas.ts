import { z } from 'zod';
import { testo, testoOpzionale, testoOVuoto } from '../../../http/text-field';
import { COUNTRY_OPTIONS } from '../../onboarding';
import { TIPI_LISTA, type TipoLista } from './lists.reference';

/** The tenant's own lists (docs/monitoring.md, "Named lists"): their entries as each type normalises them. */

const ISO2 = new Set(COUNTRY_OPTIONS.map((c) => c.code));
/** Most entries a tenant list holds (each version copies them: a list is reference data, not a registry). */
export const MAX_LIST_ENTRIES = 10_000;

export const LIST_CODE = /^[a-z][a-z0-9_]{2,62}$/;

/** An entry of a list of this type as stored, or the message that refuses it. */
export function normaliseEntry(tipo: TipoLista, raw: string): { ok: true; valore: string } | { ok: false; message: string } {
  const v = raw.trim();
  if (!v) return { ok: false, message: 'Voce vuota' };
  if (tipo === 'paesi') {
    const c = v.toUpperCase();
    return ISO2.has(c) ? { ok: true, valore: c } : { ok: false, message: `«${v}» non è un codice paese ISO 3166 di due lettere` };
  }
  if (tipo === 'indirizzi_crypto') {
    if (!/^[A-Za-z0-9:_-]{16,128}$/.test(v)) return { ok: false, message: `«${v.slice(0, 40)}» non è un indirizzo cripto (da 16 a 128 caratteri tra lettere, cifre e : _ -)` };
    return { ok: true, valore: /^0x[0-9a-fA-F]{40}$/.test(v) ? v.toLowerCase() : v };
  }
  const c = v.replace(/\s+/g, ' ').toUpperCase();
  if (c.length > 200) return { ok: false, message: 'Al massimo 200 caratteri per voce' };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(c)) return { ok: false, message: 'La voce contiene caratteri di controllo' };
  return { ok: true, valore: c };
}

const entry = z.union([
  z.string(),
  z.object({ valore: z.string({ message: 'Indica il valore' }), nota: testoOpzionale({ max: 500 }) }),
], { message: 'Una voce: un testo, o { valore, nota }' });

const entries = z.array(entry, { message: 'voci: un elenco' }).max(MAX_LIST_ENTRIES, `Al massimo ${MAX_LIST_ENTRIES} voci`);

export const createListSchema = z.object({
  codice: z.string({ message: 'Indica il codice' }).trim()
    .regex(LIST_CODE, 'Il codice va scritto in minuscolo, con lettere, cifre e trattini bassi (almeno 3 caratteri, inizia con una lettera)'),
  nome: testo({ max: 200, min: 3, vuoto: 'Indica il nome' }),
  tipo: z.enum(TIPI_LISTA, { message: 'Tipo: paesi, indirizzi_crypto o controparti' }),
  descrizione: testoOVuoto({ max: 2_000, multiline: true }),
  voci: entries.optional().default([]),
});
export type CreateListInput = z.infer<typeof createListSchema>;

/**
 * PUT /api/monitoring/liste/:codice: a new version. `voci` replaces every entry; `aggiungi` and
 * `rimuovi` change the current ones. The reason goes into the version.
 */
export const updateListSchema = z.object({
  nome: testo({ max: 200, min: 3, vuoto: 'Indica il nome' }).optional(),
  voci: entries.optional(),
  aggiungi: entries.optional(),
  rimuovi: z.array(z.string(), { message: 'rimuovi: un elenco di valori' }).max(MAX_LIST_ENTRIES).optional(),
  motivazione: testo({ max: 2_000, multiline: true, vuoto: 'Indica il motivo della modifica' }),
}).superRefine((b, ctx) => {
  if (b.voci && (b.aggiungi || b.rimuovi)) ctx.addIssue({ code: 'custom', path: ['voci'], message: 'Indica tutte le voci (voci) oppure le modifiche (aggiungi, rimuovi), non entrambe' });
  if (!b.voci && !b.aggiungi && !b.rimuovi && !b.nome) ctx.addIssue({ code: 'custom', path: ['voci'], message: 'Nessuna modifica: indica le voci, o cosa aggiungere o rimuovere' });
});
export type UpdateListInput = z.infer<typeof updateListSchema>;

export const listRecord = z.object({
  id: z.string(), codice: z.string(), nome: z.string(), tipo: z.enum(TIPI_LISTA), origine: z.enum(['riferimento', 'tenant']), descrizione: z.string(),
  fonte: z.string().nullable(), versione_corrente: z.number(), voci: z.number(), created_by: z.string(), created_at: z.string(), updated_at: z.string(),
});
export const listsResponse = z.object({ items: z.array(listRecord) });
export const listDetailResponse = listRecord.extend({
  elementi: z.array(z.object({ valore: z.string(), nota: z.string().nullable() })),
  versioni: z.array(z.object({
    id: z.string(), versione: z.number(), hash: z.string(), voci: z.number(), fonte: z.string().nullable(), motivazione: z.string().nullable(),
    created_by: z.string(), created_at: z.string(),
  })),
});
