import type { GoamlNode } from '../../filing';

/**
 * The one module that maps a transmitted SOS onto a goAML STR (docs/sos.md, "From an SOS to a goAML
 * filing"): the filing made from a report starts as this content, in draft, for the preparer to
 * complete and the filing's validation to judge. Pure: what it needs is read by the caller.
 *
 * - operations → `transaction`: bi-party, the reported customer on the side the money leaves
 *   (uscita) or reaches (entrata), the operation's counterparty (a subject with role controparte,
 *   else "unknown") on the other, an entity known by its name when it is not in the register; cash is the funds code CASH, anything else ELCFT;
 * - subjects → the parties (a customer known to the register as a person by name and surname,
 *   otherwise as an entity), executors named in the transaction's description;
 * - phenomenon codes and UIF indicators → the `reason` text (goAML's own indicator codes are the
 *   FIU's, chosen by the preparer: `indicators`);
 * - the description → `reason`, the transmission (UIF protocol) → `action`.
 */

export interface SosGoamlSubject {
  nominativo: string; codice_fiscale: string | null; ruolo: string;
  /** From the register, when the subject is a customer. */
  anagrafe?: { tipo_soggetto: string; nome: string | null; cognome: string | null; data_nascita: string | null; nazionalita: string | null; paese_residenza: string | null;
    telefono?: string | null; attivita?: string | null;
    /** The customer's identity documents (records area). */
    documenti?: { tipo: string; numero: string | null; paese_rilascio: string | null; data_rilascio: string | null; data_scadenza: string | null }[] } | null;
}

export interface SosForGoaml {
  cod_segnalazione: string;
  oggetto: string;
  descrizione: string;
  protocollo_uif: string | null;
  trasmessa_at: string | null;
  operazioni: { movimento_id: string | null; data_operazione: string; importo: number | string; valuta: string; segno: string | null; causale: string | null; descrizione: string }[];
  soggetti: SosGoamlSubject[];
  fenomeni: { codice: string; descrizione: string }[];
  indicatori: { indicatore: number; sottoindice: string | null }[];
}

export interface GoamlReporter {
  /** The reporting entity's id at the FIU (tenant setting `filing.goaml_rentity_id`); absent: the validation asks for it. */
  rentityId: string | null;
  person: { first_name: string; last_name: string };
  /** The entity's currency and country (ISO codes). */
  currency: string;
  country: string;
  /** Where the operations took place, as the FIU reads it (the reporting entity's name). */
  location: string;
}

const REASON_MAX = 4000;
/** The records area's document types in the FIU's identifier list (the rest is "-", unknown). */
const DOCUMENT_TYPES: Record<string, string> = { passaporto: 'PASSP', patente: 'DRIVL', visura_camerale: 'TRADL' };
const UNKNOWN_COUNTRY = '-';

const isoDateTime = (d: string) => `${d.slice(0, 10)}T00:00:00`;
const amount = (v: number | string) => Number(v).toFixed(2);
const country = (c: string | null | undefined, fallback: string) => (c && /^[A-Z]{2}$/.test(c) ? c : fallback);

/**
 * A name as goAML's person names admit it (letters without accents, digits, space . ' -): accents
 * dropped (Niccolò → Niccolo), anything else a space.
 */
export const goamlName = (v: string) => v.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-zA-Z0-9 .'-]/g, ' ').replace(/\s+/g, ' ').trim() || '-';

/** "Mario Rossi" → Mario / Rossi when the register has no separate names. */
function names(s: SosGoamlSubject): { first_name: string; last_name: string } {
  if (s.anagrafe?.nome && s.anagrafe.cognome) return { first_name: goamlName(s.anagrafe.nome), last_name: goamlName(s.anagrafe.cognome) };
  const parts = goamlName(s.nominativo).split(' ');
  return parts.length > 1 ? { first_name: parts.slice(0, -1).join(' '), last_name: parts[parts.length - 1]! } : { first_name: '-', last_name: parts[0] ?? '-' };
}

// A subject outside the register is known by a name only, which may be a person's or a company's: it goes as an entity named so.
const isEntity = (s: SosGoamlSubject) => !s.anagrafe || s.anagrafe.tipo_soggetto !== 'persona_fisica';

/** An Italian tax code's day of birth is raised by 40 for a woman; otherwise unspecified. */
export function genderOf(codiceFiscale: string | null): 'M' | 'F' | '-' {
  const m = /^[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-EHLMPRST]([0-9LMNPQRSTUV]{2})/i.exec(codiceFiscale ?? '');
  if (!m) return '-';
  const digits = m[1]!.toUpperCase().replace(/[LMNPQRSTUV]/g, (c) => String('LMNPQRSTUV'.indexOf(c)));
  const day = Number(digits);
  return day > 40 && day <= 71 ? 'F' : day >= 1 && day <= 31 ? 'M' : '-';
}

function person(s: SosGoamlSubject, fallbackCountry: string, mine: boolean): GoamlNode {
  const p: GoamlNode = { gender: genderOf(s.codice_fiscale), ...names(s) };
  if (s.anagrafe?.data_nascita) p.birthdate = isoDateTime(s.anagrafe.data_nascita);
  if (s.codice_fiscale) p.id_number = s.codice_fiscale;
  p.nationality1 = country(s.anagrafe?.nazionalita, fallbackCountry);
  p.residence = country(s.anagrafe?.paese_residenza, fallbackCountry);
  const phone = s.anagrafe?.telefono?.replace(/[^\d+]/g, '');
  if (phone) {
    const m = /^(?:\+|00)(39)(\d{5,})$/.exec(phone);
    p.phones = { phone: [{ tph_contact_type: 'PRIVT', tph_communication_type: 'L', ...(m ? { tph_country_prefix: m[1]! } : {}), tph_number: m ? m[2]! : phone.replace(/^\+/, '') }] };
  }
  if (s.anagrafe?.attivita) p.occupation = s.anagrafe.attivita.slice(0, 255);
  // A document goes only with the fields the schema requires (number, both dates); the FIU's type list has no Italian identity card.
  const ids = (s.anagrafe?.documenti ?? []).filter((d) => d.numero && d.data_rilascio && d.data_scadenza).map((d) => ({
    type: DOCUMENT_TYPES[d.tipo] ?? '-', number: d.numero!, issue_date: isoDateTime(d.data_rilascio!), expiry_date: isoDateTime(d.data_scadenza!),
    issue_country: country(d.paese_rilascio, fallbackCountry),
  }));
  if (ids.length) p.identifications = { identification: ids };
  // The Italian tax code is the person's tax number.
  if (s.codice_fiscale) p.tax_number = s.codice_fiscale;
  // One letter in this schema, required for the reporting entity's own client: registered for tax or not.
  if (mine) p.tax_reg_number = s.codice_fiscale ? 'Y' : 'N';
  return p;
}

function entity(s: SosGoamlSubject, fallbackCountry: string): GoamlNode {
  const e: GoamlNode = { name: s.nominativo };
  if (s.codice_fiscale) e.tax_number = s.codice_fiscale;
  if (s.anagrafe) e.incorporation_country_code = country(s.anagrafe.paese_residenza, fallbackCountry);
  return e;
}

/** The text of `reason`: the description, then the phenomena and UIF indicators it refers to. */
export function goamlReason(sos: SosForGoaml): string {
  const parts = [sos.descrizione.trim() || sos.oggetto];
  if (sos.fenomeni.length) parts.push(`Fenomeni UIF: ${sos.fenomeni.map((f) => `${f.codice} (${f.descrizione})`).join('; ')}.`);
  if (sos.indicatori.length) parts.push(`Indicatori di anomalia UIF: ${sos.indicatori.map((i) => (i.sottoindice ? `${i.indicatore} (${i.sottoindice})` : String(i.indicatore))).join(', ')}.`);
  const text = parts.join('\n');
  return text.length > REASON_MAX ? `${text.slice(0, REASON_MAX - 1)}…` : text;
}

export function sosToGoaml(sos: SosForGoaml, reporter: GoamlReporter, indicators: readonly string[]): GoamlNode {
  const customer = sos.soggetti.find((s) => s.ruolo === 'cliente');
  const counterparty = sos.soggetti.find((s) => s.ruolo === 'controparte');
  const executors = sos.soggetti.filter((s) => s.ruolo === 'esecutore').map((s) => s.nominativo);
  const side = (s: SosGoamlSubject | undefined, prefix: 'from' | 'to', funds: string, mine: boolean): GoamlNode => {
    const node: GoamlNode = { [`${prefix}_funds_code`]: funds };
    if (s) node[isEntity(s) ? `${prefix}_entity` : `${prefix}_person`] = isEntity(s) ? entity(s, reporter.country) : person(s, reporter.country, mine);
    else node[`${prefix}_person`] = { first_name: '-', last_name: 'Sconosciuto' };
    node[`${prefix}_country`] = mine ? country(s?.anagrafe?.paese_residenza, reporter.country) : UNKNOWN_COUNTRY;
    return node;
  };
  const transaction = sos.operazioni.map((o, i) => {
    const cash = /contanti/i.test(o.descrizione);
    const funds = cash ? 'CASH' : 'ELCFT';
    const outgoing = o.segno !== 'entrata';
    const description = [o.causale, o.descrizione, o.valuta !== reporter.currency ? `importo in ${o.valuta}` : null, executors.length ? `eseguita da ${executors.join(', ')}` : null]
      .filter(Boolean).join(' · ');
    const t: GoamlNode = {
      transactionnumber: `${sos.cod_segnalazione}-${i + 1}`,
      ...(o.movimento_id ? { internal_ref_number: o.movimento_id } : {}),
      transaction_location: reporter.location,
      ...(description ? { transaction_description: description.slice(0, 4000) } : {}),
      date_transaction: isoDateTime(o.data_operazione),
      transmode_code: cash ? 'OCT' : 'ELCFT',
      // One character in this schema (the FIU's sample writes E): the transmode code says the rest.
      transmode_comment: 'E',
      amount_local: amount(o.importo),
    };
    if (outgoing) {
      t.t_from_my_client = side(customer, 'from', funds, true);
      t.t_to = side(counterparty, 'to', funds, false);
    } else {
      t.t_from = side(counterparty, 'from', funds, false);
      t.t_to_my_client = side(customer, 'to', funds, true);
    }
    return t;
  });
  const report: GoamlNode = {
    ...(reporter.rentityId ? { rentity_id: reporter.rentityId } : {}),
    submission_date: isoDateTime(new Date().toISOString()),
    currency_code_local: reporter.currency,
    reporting_person: { first_name: goamlName(reporter.person.first_name), last_name: goamlName(reporter.person.last_name) },
    reason: goamlReason(sos),
    action: sos.protocollo_uif
      ? `Segnalazione ${sos.cod_segnalazione} trasmessa alla UIF con protocollo ${sos.protocollo_uif}${sos.trasmessa_at ? ` il ${sos.trasmessa_at.slice(0, 10)}` : ''}`
      : `Segnalazione ${sos.cod_segnalazione}`,
    transaction,
  };
  if (indicators.length) report.report_indicators = { indicator: [...indicators] };
  return report;
}
