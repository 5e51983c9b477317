import type { SubjectType, ValidationIssue } from '../../../workflows/onboarding/onboarding.contract';
import { cddAnswerLabel, cddSchemaFor, CDD_SCHEMA_VERSION, type CddQuestion } from './onboarding.cdd-schema';
import {
  anagrafeGroups, COUNTRY_SELECT, countryFields, DOCUMENT_TYPES, flatten, labelsOf, RETE_LABELS, RUOLO_PAESE_LABELS, SUBJECT_TYPE_LABELS, uboFields,
  type FieldDef, type FieldGroup, type Option,
} from './onboarding.forms';
import type { CaseView } from './onboarding.service';
import { validateApplication, type ApplicationData } from './onboarding.validation';
import type { DocumentType } from './onboarding.schemas';

/**
 * View models of the wizard's steps: what each page shows, built from the applicant's
 * case view. Validation is the service's (validateApplication), so a step reports exactly
 * what submission would refuse, with its issue paths turned into the step's field names.
 */

/** Every open issue of the case, as submission would report it. */
export function applicationIssues(v: CaseView): ValidationIssue[] {
  const data: ApplicationData = {
    tipo_soggetto: v.tipo_soggetto, anagrafe: v.anagrafe, ubo: v.ubo, cdd_answers: v.cdd_answers.risposte,
    cdd_schema_version: v.cdd_answers.versione, countries: v.countries.paesi,
    travel_rule: { stato: v.travel_rule.stato, dichiarazione: v.travel_rule.dichiarazione },
    documents: v.documents, wallets: v.wallets.map((w) => ({ id: w.id, tipo: w.tipo, volume_annuo_eur: w.volume_annuo_eur, prova: w.prova as never })),
  };
  return validateApplication(data).issues;
}

/** An issue's path as the name of the field that shows it on its step. */
export function issueField(path: string): string {
  return path
    .replace(/^anagrafe\./, '')
    .replace(/^ubo\.titolari/, 'titolari')
    .replace(/^cdd_answers\.versione$/, '_form')
    .replace(/^cdd_answers$/, '_form')
    .replace(/^cdd_answers\./, 'risposte.')
    .replace(/^countries/, 'paesi');
}

/** The issues of one step, keyed by field name (first message per field). */
export function stepErrors(issues: ValidationIssue[], step: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of issues) if (i.step === step) out[issueField(i.path)] ??= i.message;
  return out;
}

/** Labels of the fields a step shows, keyed by field name (for error summaries and issue lists). */
export function stepLabels(subjectType: SubjectType | null, step: number, rows = 20): Record<string, string> {
  switch (step) {
    case 1: return subjectType ? labelsOf(anagrafeGroups(subjectType)) : {};
    case 2: return uboLabels(rows);
    case 5: return Object.fromEntries(cddFields(subjectType).fields.map((f) => [f.name, f.label]));
    case 6: return countryLabels(rows);
    case 7: return WALLET_LABELS;
    default: return {};
  }
}

export const WALLET_LABELS: Record<string, string> = {
  rete: 'Rete', indirizzo: 'Indirizzo del wallet', tipo: 'Custodia delle chiavi', vasp_nome: 'Nome del prestatore', volume_annuo_eur: 'Volume annuo previsto',
  'prova.metodo': 'Prova del controllo', 'prova.firma': 'Firma del messaggio', luogo: 'Luogo della dichiarazione',
  titolare_wallet: 'Dichiarazione di titolarità', fondi_leciti: 'Provenienza lecita dei fondi', aggiornamento: 'Impegno a comunicare le variazioni',
};

/** An issue as a line of a list: the field's label, when it has one, before the message. */
export function issueText(subjectType: SubjectType | null, issue: ValidationIssue): string {
  const label = stepLabels(subjectType, issue.step, 60)[issueField(issue.path)];
  return label ? `${label}: ${issue.message}` : issue.message;
}

// ---- CDD questionnaire ----

export function cddFields(subjectType: SubjectType | null): { versione: string; fields: FieldDef[]; questions: CddQuestion[] } {
  const s = cddSchemaFor(subjectType, CDD_SCHEMA_VERSION);
  const fields = s.domande.map((q): FieldDef => ({
    name: `risposte.${q.id}`, label: q.etichetta, help: q.aiuto, required: q.obbligatoria, col: 12,
    type: q.tipo === 'scelta' ? 'select' : q.tipo === 'testo' ? 'textarea' : q.tipo === 'booleano' ? 'yesno' : 'number',
    options: q.opzioni ? [{ value: '', label: 'Scegli…' }, ...q.opzioni.map((o) => ({ value: o.valore, label: o.etichetta }))] : undefined,
  }));
  return { versione: s.versione, fields, questions: s.domande };
}

// ---- repeated rows ----

export function uboRows(count: number, ids: (string | undefined)[] = []) {
  return Array.from({ length: count }, (_, i) => ({ index: i, numero: i + 1, id: ids[i], fields: uboFields(`titolari.${i}.`) }));
}
export function countryRows(count: number) {
  return Array.from({ length: count }, (_, i) => ({ index: i, numero: i + 1, fields: countryFields(`paesi.${i}.`) }));
}
export const uboLabels = (count: number) => Object.fromEntries(uboRows(count).flatMap((r) => r.fields.map((f) => [f.name, `Titolare ${r.numero} – ${f.label}`])));
export const countryLabels = (count: number) => Object.fromEntries(countryRows(count).flatMap((r) => r.fields.map((f) => [f.name, `Paese ${r.numero} – ${f.label}`])));

// ---- documents ----

const STEP_DOC_TYPES: Record<3 | 4, DocumentType[]> = {
  3: ['documento_identita', 'codice_fiscale', 'prova_indirizzo'],
  4: ['visura_camerale', 'atto_costitutivo', 'bilancio'],
};

/** Types offered on a documents step; «altro» goes on the last documents step the subject has. */
export function docTypesFor(step: 3 | 4, subjectType: SubjectType | null): DocumentType[] {
  const lastDocStep = subjectType && subjectType !== 'persona_fisica' ? 4 : 3;
  return step === lastDocStep ? [...STEP_DOC_TYPES[step], 'altro'] : STEP_DOC_TYPES[step];
}

/** Who a document can belong to: the subject (or legal representative) and each beneficial owner. */
export function referenceOptions(v: CaseView): Option[] {
  const subject = v.tipo_soggetto === 'societa' ? 'Legale rappresentante / società' : 'Cliente';
  const owners = v.ubo.titolari.filter((t) => t.id).map((t, i) => ({ value: t.id!, label: `Titolare effettivo: ${[t.nome, t.cognome].filter(Boolean).join(' ') || `n. ${i + 1}`}` }));
  return [{ value: 'soggetto', label: subject }, ...owners];
}

export function documentsStep(v: CaseView, step: 3 | 4) {
  const types = docTypesFor(step, v.tipo_soggetto);
  const refs = referenceOptions(v);
  const refLabel = (r: string) => refs.find((o) => o.value === r)?.label ?? 'Titolare non più indicato';
  return {
    required: v.required_documents.filter((r) => r.step === step),
    documents: v.documents.filter((d) => (types as string[]).includes(d.tipo)).map((d) => ({
      ...d, tipoLabel: DOCUMENT_TYPES[d.tipo as DocumentType] ?? d.tipo, riferimentoLabel: refLabel(d.riferimento),
    })),
    typeOptions: [{ value: '', label: 'Scegli…' }, ...types.map((t) => ({ value: t, label: DOCUMENT_TYPES[t] }))],
    referenceOptions: step === 3 ? refs : refs.slice(0, 1),
  };
}

// ---- wallets ----

export { walletProofMessage } from './wallet-proof';

export const reteOptions: Option[] = [{ value: '', label: 'Scegli…' }, ...Object.entries(RETE_LABELS).map(([value, label]) => ({ value, label }))];

// ---- summary ----

const dateFmt = new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', day: '2-digit', month: '2-digit', year: 'numeric' });

function display(f: FieldDef, raw: string | undefined): string {
  if (raw === undefined || raw === '') return '—';
  if (f.options) return f.options.find((o) => o.value === raw)?.label ?? raw;
  if (f.type === 'yesno') return raw === 'true' ? 'Sì' : raw === 'false' ? 'No' : raw;
  if (f.type === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(raw)) return dateFmt.format(new Date(`${raw}T12:00:00Z`));
  return raw;
}

const rowsOf = (fields: FieldDef[], flat: Record<string, string>) => fields.map((f) => ({ label: f.label, value: display(f, flat[f.name]) }));

/** Everything the applicant entered, section by section, for the summary page. */
export function summarySections(v: CaseView) {
  const tipo = v.tipo_soggetto;
  const anagrafe = tipo ? anagrafeGroups(tipo).map((g: FieldGroup) => ({ titolo: g.legend, righe: rowsOf(g.fields, flatten(v.anagrafe)) })) : [];
  const ubo = v.ubo.titolari.map((t, i) => ({ titolo: `Titolare ${i + 1}`, righe: rowsOf(uboFields(''), flatten(t)) }));
  const cdd = cddSchemaFor(tipo, CDD_SCHEMA_VERSION).domande.map((q) => ({ label: q.etichetta, value: cddAnswerLabel(q, v.cdd_answers.risposte[q.id]) }));
  const paese = COUNTRY_SELECT;
  const countries = (v.countries.paesi as { paese?: string; ruolo?: string }[]).map((c) => ({
    paese: paese.find((o) => o.value === c.paese)?.label ?? c.paese ?? '—', ruolo: RUOLO_PAESE_LABELS[c.ruolo as keyof typeof RUOLO_PAESE_LABELS] ?? c.ruolo ?? '—',
  }));
  return { tipo: tipo ? SUBJECT_TYPE_LABELS[tipo] : '—', anagrafe, ubo, cdd, countries };
}
