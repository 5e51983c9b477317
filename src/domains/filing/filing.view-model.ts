import { FILING_TIPI } from '../../../workflows/filing/filing.deadlines';
import type { FilingAction, FilingStatus } from '../../../workflows/filing/filing.machine';
import { FILING_AZIONE_LABELS, FILING_STATO_LABELS, FILING_TIPO_LABELS } from './filing.labels';
import { GOAML_JURISDICTIONS } from './goaml/jurisdiction';

interface Finding { code: string; path: string; message: string; source: string }

/** The content as one line per field (its path and value), each with the findings about it. Pure. */
const GOAML_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):\d{2}$/;

/**
 * A value as a person reads it: goAML's dates (`2026-05-26T10:00:00`, the FIU's local time, no zone)
 * as dd/mm/yyyy, with the time when there is one. Written from the text, not through an instant: the
 * value names no zone to convert from.
 */
export function goamlDisplay(value: string): string {
  const m = GOAML_DATETIME.exec(value.trim());
  if (!m) return value;
  const day = `${m[3]}/${m[2]}/${m[1]}`;
  return m[4] === '00' && m[5] === '00' ? day : `${day} ${m[4]}:${m[5]}`;
}

export function contentRows(content: unknown, findings: Finding[]) {
  const rows: { path: string; value: string; display: string; findings: Finding[] }[] = [];
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k);
    else rows.push({ path, value: String(v ?? ''), display: goamlDisplay(String(v ?? '')), findings: [] });
  };
  walk(content, '');
  // A repeated element written once in the content is path "x" there and "x[0]" for the validator.
  const norm = (p: string) => p.replace(/\[0\]/g, '');
  const unplaced: Finding[] = [];
  for (const f of findings) {
    const row = rows.find((r) => r.path === f.path) ?? rows.find((r) => norm(r.path) === norm(f.path));
    if (row) row.findings.push(f); else unplaced.push(f);
  }
  return { rows, unplaced };
}

/** Who acts next in each state: the workbench's "waiting for whom". */
export const WAITING_FOR: Partial<Record<FilingStatus, string>> = {
  draft: 'Chi prepara (analista, SOS, responsabile)', classified: 'Chi prepara: validazione', validated: 'Chi prepara: da segnare pronta',
  ready: 'Chi prepara: da inviare in approvazione', pending_approval: 'Un responsabile antiriciclaggio diverso da chi l\'ha preparata',
  approved: 'Il responsabile antiriciclaggio: firma', signing: 'Il firmatario (cerimonia di firma)', signed: 'Responsabile o delegato SOS: generare il pacchetto',
  packaged: 'Responsabile o delegato SOS: invio al portale', returned: 'Chi prepara: segnalazione di seguito',
};

const opts = (values: readonly string[], labels: Record<string, string>, placeholder?: string) =>
  [...(placeholder ? [{ value: '', label: placeholder }] : []), ...values.map((v) => ({ value: v, label: labels[v] ?? v }))];

export const FILING_OPTIONS = {
  tipo: opts(FILING_TIPI, FILING_TIPO_LABELS, 'Scegli…'),
  jurisdiction: GOAML_JURISDICTIONS.map((j) => ({ value: j.id, label: j.label })),
  reportCode: GOAML_JURISDICTIONS.flatMap((j) => Object.entries(j.reportCodes).map(([code, r]) => ({ value: code, label: `${code} – ${r.label}` }))),
};

export const FILING_PAGE_LABELS = { stato: FILING_STATO_LABELS, tipo: FILING_TIPO_LABELS, azione: FILING_AZIONE_LABELS as Record<FilingAction, string> };
