import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { SosContent } from '../../../workflows/sos/sos.contract';
import { assertReferencesInTenant, type References } from '../../db/references';
import { ValidationError, type FieldError } from '../../http/errors';

/**
 * Writes a report's structured content (docs/sos.md, "Content"): operations, subjects with
 * their roles, relationships, links between subjects, phenomenon codes, indicators. The
 * content is replaced as a whole (the investigation view sends all of it), inside the
 * caller's transaction, which runs under the principal that may see the report.
 */
export const SOS_CONTENT_TABLES = ['sos_legami', 'sos_operazioni', 'sos_soggetti', 'sos_rapporti', 'sos_fenomeni', 'sos_indicatori'] as const;

export async function writeSosContent(trx: Knex.Transaction, codAzienda: string, sosId: string, c: SosContent): Promise<void> {
  for (const table of SOS_CONTENT_TABLES) await trx(table).where({ sos_id: sosId }).delete();
  const base = () => ({ id: randomUUID(), cod_azienda: codAzienda, sos_id: sosId });
  if (c.operazioni.length) {
    await trx('sos_operazioni').insert(c.operazioni.map((o) => ({
      ...base(), movimento_id: o.movimento_id ?? null, cod_alert: o.cod_alert ?? null, data_operazione: o.data_operazione,
      importo: o.importo, valuta: o.valuta, segno: o.segno ?? null, causale: o.causale ?? null, descrizione: o.descrizione ?? '',
    })));
  }
  const subjects = c.soggetti.map((s) => ({ ...base(), cod_anagrafe: s.cod_anagrafe ?? null, nominativo: s.nominativo, codice_fiscale: s.codice_fiscale ?? null, ruolo: s.ruolo }));
  if (subjects.length) await trx('sos_soggetti').insert(subjects);
  const links = c.legami.filter((l) => subjects[l.da] && subjects[l.a]).map((l) => ({ ...base(), soggetto_da: subjects[l.da]!.id, soggetto_a: subjects[l.a]!.id, tipo: l.tipo }));
  if (links.length) await trx('sos_legami').insert(links);
  if (c.rapporti.length) await trx('sos_rapporti').insert(c.rapporti.map((r) => ({ ...base(), cod_rapporto: r.cod_rapporto ?? null, descrizione: r.descrizione })));
  const fenomeni = [...new Set(c.fenomeni)];
  if (fenomeni.length) await trx('sos_fenomeni').insert(fenomeni.map((codice) => ({ ...base(), codice })));
  const seen = new Set<string>();
  const indicatori = c.indicatori.filter((i) => { const k = `${i.indicatore}|${i.sottoindice ?? ''}`; if (seen.has(k)) return false; seen.add(k); return true; });
  if (indicatori.length) await trx('sos_indicatori').insert(indicatori.map((i) => ({ ...base(), indicatore: i.indicatore, sottoindice: i.sottoindice, proposto: i.proposto ?? false })));
}

export interface SosContentRows {
  operazioni: { id: string; movimento_id: string | null; cod_alert: string | null; data_operazione: string; importo: string; valuta: string; segno: string | null; causale: string | null; descrizione: string }[];
  soggetti: { id: string; cod_anagrafe: string | null; nominativo: string; codice_fiscale: string | null; ruolo: string }[];
  rapporti: { id: string; cod_rapporto: string | null; descrizione: string }[];
  legami: { id: string; soggetto_da: string; soggetto_a: string; tipo: string }[];
  fenomeni: { codice: string }[];
  indicatori: { indicatore: number; sottoindice: string | null; proposto: boolean }[];
}

export async function readSosContent(trx: Knex.Transaction, sosId: string): Promise<SosContentRows> {
  const w = { sos_id: sosId };
  return {
    operazioni: await trx('sos_operazioni').where(w).orderBy(['data_operazione', 'id'])
      .select('id', 'movimento_id', 'cod_alert', trx.raw("to_char(data_operazione, 'YYYY-MM-DD') as data_operazione"), trx.raw('importo::text as importo'), 'valuta', 'segno', 'causale', 'descrizione'),
    soggetti: await trx('sos_soggetti').where(w).orderBy(['created_at', 'id']).select('id', 'cod_anagrafe', 'nominativo', 'codice_fiscale', 'ruolo'),
    rapporti: await trx('sos_rapporti').where(w).orderBy('id').select('id', 'cod_rapporto', 'descrizione'),
    legami: await trx('sos_legami').where(w).orderBy('id').select('id', 'soggetto_da', 'soggetto_a', 'tipo'),
    fenomeni: await trx('sos_fenomeni').where(w).orderBy('codice').select('codice'),
    indicatori: await trx('sos_indicatori').where(w).orderBy(['indicatore', 'sottoindice']).select('indicatore', 'sottoindice', 'proposto'),
  };
}

/**
 * The content's references must be the tenant's own records (a subject, a relationship, a
 * movement); each one that is not is a 422 naming its field, as everywhere in the API.
 */
export async function assertSosContentReferences(trx: Knex.Transaction, codAzienda: string, c: SosContent, prefix = 'content'): Promise<void> {
  const refs: References = {};
  c.soggetti.forEach((s, i) => { refs[`${prefix}.soggetti.${i}.cod_anagrafe`] = { kind: 'soggetto', value: s.cod_anagrafe }; });
  c.rapporti.forEach((r, i) => { refs[`${prefix}.rapporti.${i}.cod_rapporto`] = { kind: 'rapporto', value: r.cod_rapporto }; });
  const errors: FieldError[] = [];
  try {
    await assertReferencesInTenant(trx, codAzienda, refs);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    errors.push(...err.errors);
  }
  const ids = c.operazioni.map((o) => o.movimento_id).filter((v): v is string => !!v);
  if (ids.length) {
    const found = new Set(await trx('movimenti').where({ cod_azienda: codAzienda }).whereIn('id', ids).pluck('id') as string[]);
    c.operazioni.forEach((o, i) => {
      if (o.movimento_id && !found.has(o.movimento_id)) errors.push({ path: `${prefix}.operazioni.${i}.movimento_id`, message: 'Movimento non trovato in questa azienda' });
    });
  }
  if (errors.length) throw new ValidationError(errors, errors[0]!.message);
}
