import { data, dataora, importo, numero, VUOTO } from '../../http/format';
import { CAMPO_LABELS, CAMPO_VALUE_LABELS, CLASSE_RISCHIO_LABELS, CLASSE_RISCHIO_TONES, labelOf, OPERAZIONE_LABELS, OPERAZIONE_TONES } from './anagrafe.labels';
import type { CustomerVersion } from './customer-version.model';
import { countryName } from '../onboarding';

/**
 * The record's versions as a person reads them: who, when, which fields, old → new, with the
 * fields' Italian names and the values formatted (dates, yes/no, labels, countries, the address).
 */

const COUNTRY_FIELDS = new Set(['nazionalita', 'paese_residenza', 'paese_fiscale']);
const DATE_FIELDS = new Set(['data_nascita', 'data_onboarding']);
const EURO_FIELDS = new Set(['volume_mensile_atteso_eur']);
const TIMESTAMP_FIELDS = new Set(['eliminato_at']);

/** A stored value as text: `—` when empty. */
export function formatFieldValue(field: string, v: unknown): string {
  if (v === null || v === undefined || v === '') return VUOTO;
  const labels = CAMPO_VALUE_LABELS[field];
  if (labels) return labels[String(v)] ?? String(v);
  if (typeof v === 'boolean') return v ? 'Sì' : 'No';
  if (DATE_FIELDS.has(field)) return data(v);
  if (TIMESTAMP_FIELDS.has(field)) return dataora(v);
  if (EURO_FIELDS.has(field)) return importo(v);
  if (COUNTRY_FIELDS.has(field) && typeof v === 'string') return `${countryName(v)} (${v})`;
  if (typeof v === 'number') return numero(v);
  if (typeof v === 'object') {
    const a = v as Record<string, unknown>;
    const paese = typeof a.paese === 'string' && a.paese ? countryName(a.paese) : null;
    // "Via Indipendenza 1, 40121 Bologna (BO), Italia"
    const town = [a.cap, a.citta, a.provincia ? `(${String(a.provincia)})` : null].filter(Boolean).join(' ');
    const line = [a.via, town, paese].filter((x) => x !== null && x !== undefined && x !== '').join(', ');
    return line || VUOTO;
  }
  return String(v);
}

export interface HistoryChange { campo: string; label: string; prima: string; dopo: string }
export interface HistoryEntry {
  versione: number;
  operazione: string;
  operazioneLabel: string;
  tone: string;
  at: Date;
  by: string;
  changes: HistoryChange[];
}

/** Fields a person never edits: kept in the version, not worth a line of history. */
const HIDDEN = new Set(['versione', 'updated_at', 'updated_by', 'created_at', 'created_by', 'dati', 'chiave_fiscale', 'onboarding_case_id']);

export function historyEntries(versions: CustomerVersion[], names: Record<string, string>): HistoryEntry[] {
  return versions.map((v) => ({
    versione: v.versione,
    operazione: v.operazione,
    operazioneLabel: OPERAZIONE_LABELS[v.operazione] ?? v.operazione,
    tone: OPERAZIONE_TONES[v.operazione] ?? 'secondary',
    at: v.changed_at,
    by: v.changed_by ? names[v.changed_by] ?? v.changed_by : 'Sistema',
    changes: Object.entries(v.campi ?? {}).filter(([k]) => !HIDDEN.has(k)).map(([k, c]) => ({
      campo: k, label: CAMPO_LABELS[k] ?? k, prima: formatFieldValue(k, c?.old), dopo: formatFieldValue(k, c?.new),
    })),
  }));
}

export interface RiskStep { at: Date; by: string; classe: string | null; label: string; tone: string; punteggio: number | null; versione: number }

/**
 * The risk class in time, from the versions (oldest first): the class the record was created
 * with, then every version that changed the class or the score.
 */
export function riskHistory(versions: CustomerVersion[], names: Record<string, string>): RiskStep[] {
  const steps: RiskStep[] = [];
  for (const v of [...versions].sort((a, b) => a.versione - b.versione)) {
    const changed = v.operazione === 'create' || 'classe_rischio' in (v.campi ?? {}) || 'punteggio_rischio' in (v.campi ?? {});
    if (!changed) continue;
    const classe = (v.snapshot?.classe_rischio as string | null | undefined) ?? null;
    const score = v.snapshot?.punteggio_rischio;
    steps.push({
      at: v.changed_at, by: v.changed_by ? names[v.changed_by] ?? v.changed_by : 'Sistema', classe, versione: v.versione,
      label: classe ? labelOf(CLASSE_RISCHIO_LABELS, classe) : 'Non valutata', tone: classe ? CLASSE_RISCHIO_TONES[classe] ?? 'secondary' : 'secondary',
      punteggio: score === null || score === undefined ? null : Number(score),
    });
  }
  return steps;
}

/** The record's countries and address in words, for the identity block (the current record or a version's snapshot). */
export function identityView(s: Record<string, unknown>) {
  return {
    nazionalita: formatFieldValue('nazionalita', s.nazionalita),
    residenza: formatFieldValue('paese_residenza', s.paese_residenza),
    paeseFiscale: formatFieldValue('paese_fiscale', s.paese_fiscale),
    indirizzo: formatFieldValue('indirizzo', s.indirizzo),
  };
}
