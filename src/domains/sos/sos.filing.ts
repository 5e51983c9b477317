import type { Knex } from 'knex';
import { z } from 'zod';
import type { Deps } from '../../deps';
import type { SessionUser } from '../../http/context';
import { conflict, ValidationError } from '../../http/errors';
import { getSetting } from '../admin';
import { createFiling, loadJurisdiction } from '../filing';
import { appendSosAudit } from './sos.audit';
import { fenomeniSos } from './sos.codes';
import { readSosContent } from './sos.content';
import { sosToGoaml, type SosGoamlSubject } from './export/sos.goaml-mapping';
import { requireSos, sosDb, type SosRow } from './sos.service';

/** The goAML jurisdiction a filing made from an SOS is prefilled for (the only one configured). */
export const SOS_FILING_JURISDICTION = 'ae-goaml-5.0.2';
/** The states in which a report has reached the UIF, so its STR may be filed. */
const FILEABLE = ['transmitted', 'closed'] as const;

export const sosFilingSchema = z.object({
  /** The FIU's indicator codes (its lookup), chosen by the delegate: the UIF's indicators are not the FIU's. */
  // A list, or (from the page's form) one text with the codes separated by commas or spaces.
  indicatori: z.preprocess((v) => (v === undefined || v === '' ? [] : Array.isArray(v) ? v : typeof v === 'string' ? v.split(/[\s,;]+/).filter(Boolean) : [v]),
    z.array(z.string().trim().regex(/^[A-Z0-9]{2,10}$/, 'Codice indicatore goAML non valido')).max(20, 'Al massimo 20 indicatori')),
});
export type SosFilingInput = z.infer<typeof sosFilingSchema>;

/** The filings made from a report, as the caller may see them (both tables are confidential: the database decides). */
export async function sosFilings(trx: Knex.Transaction, sosId: string) {
  return trx('sos_filings as l').join('filings as f', 'f.id', 'l.filing_id').where('l.sos_id', sosId)
    .orderBy('l.created_at').select('f.id', 'f.titolo', 'f.stato', 'l.created_at') as Promise<{ id: string; titolo: string; stato: string; created_at: Date }[]>;
}

/** The report a filing was made from, or null: a caller without `sos`/`co` (or who may not see the report) gets null from the database. */
export async function sosOfFiling(trx: Knex.Transaction, filingId: string) {
  return (await trx('sos_filings as l').join('sos_reports as r', 'r.id', 'l.sos_id').where('l.filing_id', filingId)
    .first('r.id', 'r.cod_segnalazione', 'r.stato')) as { id: string; cod_segnalazione: string; stato: string } | undefined ?? null;
}

async function subjectsOf(trx: Knex.Transaction, codAzienda: string, soggetti: { cod_anagrafe: string | null; nominativo: string; codice_fiscale: string | null; ruolo: string }[]): Promise<SosGoamlSubject[]> {
  const out: SosGoamlSubject[] = [];
  for (const s of soggetti) {
    const a = s.cod_anagrafe ? await trx('anagrafe').where({ cod_azienda: codAzienda, cod_anagrafe: s.cod_anagrafe })
      .first('tipo_soggetto', 'nome', 'cognome', trx.raw("to_char(data_nascita, 'YYYY-MM-DD') as data_nascita"), 'nazionalita', 'paese_residenza', 'telefono', 'attivita') : undefined;
    const documenti = a ? await trx('documenti').where({ cod_azienda: codAzienda, cod_anagrafe: s.cod_anagrafe, stato: 'valido' }).orderBy('data_scadenza', 'desc')
      .select('tipo', 'numero', 'paese_rilascio', trx.raw("to_char(data_rilascio, 'YYYY-MM-DD') as data_rilascio"), trx.raw("to_char(data_scadenza, 'YYYY-MM-DD') as data_scadenza")) : [];
    out.push({ nominativo: s.nominativo, codice_fiscale: s.codice_fiscale, ruolo: s.ruolo, anagrafe: a ? { ...a, documenti } : null });
  }
  return out;
}

/**
 * A transmitted report's goAML STR (docs/sos.md, "From an SOS to a goAML filing"): a filing in draft,
 * prefilled by the mapping module, reserved (only `sos` and `co` see it) and linked to the report in
 * the SOS area's confidential table. One open filing per report.
 */
export async function createFilingFromSos(deps: Deps, codAzienda: string, user: SessionUser, idOrCode: string, input: SosFilingInput) {
  const j = await loadJurisdiction(deps.config.goamlDataDir, SOS_FILING_JURISDICTION);
  const unknown = input.indicatori.filter((c) => !j.codeLists.indicators?.has(c));
  if (unknown.length) throw new ValidationError([{ path: 'indicatori', message: `Indicatori sconosciuti alla FIU (${j.config.label}): ${unknown.join(', ')}` }]);
  const fenomeni = new Map(fenomeniSos().map((f) => [f.codice, f.descrizione]));
  const prepared = await sosDb(deps, codAzienda, user)(async (trx) => {
    const row: SosRow = await requireSos(trx, idOrCode);
    if (!(FILEABLE as readonly string[]).includes(row.stato)) {
      throw conflict('SOS_NOT_TRANSMITTED', 'Solo una segnalazione trasmessa alla UIF può diventare un filing goAML', { stato: row.stato });
    }
    const open = (await sosFilings(trx, row.id)).filter((f) => f.stato !== 'archived');
    if (open.length) throw conflict('SOS_FILING_EXISTS', 'Per questa segnalazione esiste già un filing aperto', { filing_id: open[0]!.id });
    const c = await readSosContent(trx, row.id);
    const azienda = await trx('aziende').where({ cod_azienda: codAzienda }).first('ragione_sociale') as { ragione_sociale: string } | undefined;
    const rentity = await getSetting(trx, 'filing.goaml_rentity_id', codAzienda);
    const content = sosToGoaml({
      cod_segnalazione: row.cod_segnalazione, oggetto: row.oggetto, descrizione: row.descrizione, protocollo_uif: row.protocollo_uif,
      trasmessa_at: row.trasmessa_at ? new Date(row.trasmessa_at).toISOString() : null,
      operazioni: c.operazioni.map((o) => ({ ...o, data_operazione: String(o.data_operazione).slice(0, 10) })),
      soggetti: await subjectsOf(trx, codAzienda, c.soggetti),
      fenomeni: c.fenomeni.map((f) => ({ codice: f.codice, descrizione: fenomeni.get(f.codice) ?? f.codice })),
      indicatori: c.indicatori,
    }, {
      rentityId: Number(rentity) > 0 ? String(rentity) : null,
      person: { first_name: user.nome, last_name: user.cognome }, currency: 'EUR', country: 'IT', location: azienda?.ragione_sociale ?? codAzienda,
    }, input.indicatori);
    return { row, content };
  });
  const { row } = prepared;
  const made = await createFiling(deps, codAzienda, user, {
    titolo: `STR goAML della segnalazione ${row.cod_segnalazione}`, tipo: 'str', content: prepared.content as Record<string, never>,
    cod_anagrafe: row.cod_anagrafe, riservata: true, sos_id: row.id,
  });
  await sosDb(deps, codAzienda, user)((trx) => appendSosAudit(trx, {
    codAzienda, sosId: row.id, actor: user.username, action: 'sos.filing', data: { filing_id: made.filingId, jurisdiction: SOS_FILING_JURISDICTION, indicatori: input.indicatori },
  }));
  return made;
}
