import { CSV_BOM, csvLine } from '../../lib/csv';
import type { GoamlNode, GoamlValue } from './goaml/report-xml';

/**
 * The tabular form of a filing: one line per transaction (bi-party: from and to; multi-party:
 * one line per party) or per party of the activity. Pure.
 */
const list = (v: GoamlValue | undefined): GoamlValue[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const node = (v: GoamlValue | undefined): GoamlNode => (v && typeof v === 'object' && !Array.isArray(v) ? v : {});
const str = (v: GoamlValue | undefined) => (typeof v === 'string' ? v : '');

/** A person, entity or account under any of goAML's names, as one readable label. */
function subject(side: GoamlNode): string {
  for (const [k, v] of Object.entries(side)) {
    const n = node(v);
    if (/person/.test(k)) return [str(n.first_name), str(n.last_name)].filter(Boolean).join(' ');
    if (/entity/.test(k)) return str(n.name);
    if (/account/.test(k)) return [str(n.institution_name), str(n.account)].filter(Boolean).join(' ');
  }
  return '';
}
const sideOf = (tx: GoamlNode, names: string[]) => node(names.map((n) => tx[n]).find((v) => v !== undefined));

export const CSV_HEADER = ['tipo_riga', 'riferimento', 'data', 'importo', 'valuta', 'mezzo', 'soggetto_da', 'paese_da', 'soggetto_a', 'paese_a', 'ruolo', 'motivo'];

export function filingCsv(report: GoamlNode): string {
  const currency = str(report.currency_code_local);
  const lines: unknown[][] = [];
  for (const t of list(report.transaction)) {
    const tx = node(t);
    const common = [str(tx.transactionnumber), str(tx.date_transaction), str(tx.amount_local), currency, str(tx.transmode_code)];
    const parties = list(node(tx.involved_parties).party);
    if (parties.length) {
      for (const p of parties) { const party = node(p); lines.push(['transazione_multiparte', ...common, subject(party), str(party.country), '', '', str(party.role), '']); }
    } else {
      const from = sideOf(tx, ['t_from_my_client', 't_from']);
      const to = sideOf(tx, ['t_to_my_client', 't_to']);
      lines.push(['transazione', ...common, subject(from), str(from.from_country), subject(to), str(to.to_country), '', '']);
    }
  }
  for (const p of list(node(node(report.activity).report_parties).report_party)) {
    const party = node(p);
    lines.push(['attivita', '', '', '', currency, '', subject(party), '', '', '', str(party.significance), str(party.reason)]);
  }
  return CSV_BOM + csvLine(CSV_HEADER) + lines.map(csvLine).join('');
}
