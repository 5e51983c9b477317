import type { SubjectType } from '../../../workflows/onboarding/onboarding.contract';
import type { SettingKey } from '../admin';
import { cddAnswerLabel, cddSchemaFor, isKnownCddVersion } from './onboarding.cdd-schema';

/**
 * What an approved onboarding case becomes: the customer record (anagrafe), the related
 * natural persons (legal representative, beneficial owners), the relationship (rapporto)
 * and the first periodic review. Mapping only; the activity writes them in one transaction.
 *
 * A sole trader (ditta individuale) has no legal personality apart from its owner: the
 * customer record is the person, with the business data on it, and no separate
 * beneficial-owner record is made (the owner is the customer).
 */

type Obj = Record<string, unknown>;

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
const upper = (v: unknown) => str(v)?.toUpperCase() ?? null;
const yes = (v: unknown) => v === true || v === 'true' || v === 'si' || v === 'sì' || v === 'on';
const fullName = (p: Obj) => [str(p.nome), str(p.cognome)].filter(Boolean).join(' ');

/** The columns of an anagrafe row (besides codes, tenant, risk and audit fields). */
export interface AnagrafeFields {
  tipo_soggetto: string;
  denominazione: string;
  nome: string | null;
  cognome: string | null;
  codice_fiscale: string | null;
  partita_iva: string | null;
  data_nascita: string | null;
  luogo_nascita: string | null;
  nazionalita: string | null;
  paese_residenza: string | null;
  indirizzo: Obj | null;
  email: string | null;
  telefono: string | null;
  attivita: string | null;
  professione: string | null;
  pep: boolean;
  ruolo: string;
  dati: Obj;
}

/** A natural person related to the customer (legal representative, beneficial owner). */
export function personFields(p: Obj, ruolo: string): AnagrafeFields {
  return {
    tipo_soggetto: 'persona_fisica', denominazione: fullName(p) || '—', nome: str(p.nome), cognome: str(p.cognome),
    codice_fiscale: upper(p.codice_fiscale), partita_iva: null, data_nascita: str(p.data_nascita), luogo_nascita: str(p.luogo_nascita),
    nazionalita: upper(p.nazionalita), paese_residenza: upper(p.paese_residenza), indirizzo: (p.residenza as Obj | undefined) ?? null,
    email: null, telefono: str(p.telefono), attivita: str(p.professione), professione: str(p.professione)?.slice(0, 200) ?? null, pep: yes(p.pep), ruolo,
    dati: { ...p },
  };
}

/** The customer itself, from the case's subject data. */
export function customerFields(tipo: SubjectType, a: Obj, email: string | null, pep: boolean): AnagrafeFields {
  if (tipo === 'societa') {
    const sede = (a.sede ?? null) as Obj | null;
    return {
      tipo_soggetto: 'societa', denominazione: str(a.denominazione) ?? '—', nome: null, cognome: null,
      codice_fiscale: upper(a.codice_fiscale), partita_iva: str(a.partita_iva), data_nascita: null, luogo_nascita: null,
      nazionalita: upper(a.paese_costituzione), paese_residenza: upper(sede?.paese), indirizzo: sede, email, telefono: null,
      attivita: str(a.attivita), professione: null, pep, ruolo: 'cliente', dati: { ...a },
    };
  }
  const person = personFields(a, 'cliente');
  if (tipo === 'ditta_individuale') {
    return {
      ...person, tipo_soggetto: 'ditta_individuale', denominazione: str(a.denominazione) ?? person.denominazione, partita_iva: str(a.partita_iva),
      indirizzo: (a.sede as Obj | undefined) ?? person.indirizzo, attivita: str(a.attivita) ?? person.attivita, email, pep, dati: { ...a },
    };
  }
  return { ...person, email, pep };
}

/** The relationship's type, purpose and nature as answered in the questionnaire. */
export function rapportoFields(version: string | null, tipo: SubjectType, answers: Obj): { tipo: string; scopo: string | null; natura: string | null } {
  const natura = answers.natura_rapporto === 'occasionale' ? 'operazione_occasionale' : 'rapporto_continuativo';
  if (!isKnownCddVersion(version)) return { tipo: natura, scopo: str(answers.scopo_rapporto), natura: str(answers.natura_rapporto) };
  const q = new Map(cddSchemaFor(tipo, version).domande.map((x) => [x.id, x]));
  const label = (id: string) => (q.has(id) && answers[id] !== undefined && answers[id] !== null && answers[id] !== '' ? cddAnswerLabel(q.get(id)!, answers[id]) : null);
  const detail = str(answers.scopo_dettaglio);
  const scopo = label('scopo_rapporto');
  return { tipo: natura, scopo: scopo && detail ? `${scopo}: ${detail}` : scopo ?? detail, natura: label('natura_rapporto') };
}

/** The setting that gives the years to the next periodic review, per risk class. */
export const REVIEW_YEARS_SETTING: Record<string, SettingKey> = {
  alto: 'cdd.review_years_high', medio_alto: 'cdd.review_years_medium_high', medio: 'cdd.review_years_medium', basso: 'cdd.review_years_low',
};

/** `from` plus whole years (29 February falls back to 28). */
export function addYears(from: Date, years: number): Date {
  const d = new Date(from.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/** Today's date in Italy (the relationship's opening date). */
export const todayInRome = (now = new Date()) => now.toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' });
