import { AMOUNT_FIELDS, CODE_FIELDS, type CodeListName, type JurisdictionConfig } from './jurisdiction';
import type { GoamlNode, GoamlValue } from './report-xml';

/**
 * Business rules the goAML schema cannot express. Each finding has a stable code (what
 * clients and the page key on) and the path of the field (dot notation below <report>,
 * `[i]` for a repeated element), the same notation the schema validator's findings use.
 * Pure: the code lists come in as data.
 */
export interface FilingFinding {
  code: string;
  path: string;
  message: string;
  source: 'rules' | 'schema' | 'return';
}

export const RULE_CODES = {
  REPORT_CODE_UNKNOWN: 'GOAML_REPORT_CODE_UNKNOWN',
  FIELD_REQUIRED: 'GOAML_FIELD_REQUIRED',
  UNKNOWN_FIELD: 'GOAML_UNKNOWN_FIELD',
  NO_TRANSACTION_OR_ACTIVITY: 'GOAML_NO_TRANSACTION_OR_ACTIVITY',
  TRANSACTION_AND_ACTIVITY: 'GOAML_TRANSACTION_AND_ACTIVITY',
  KIND_MISMATCH: 'GOAML_KIND_MISMATCH',
  PARTIES_MIXED: 'GOAML_PARTIES_MIXED',
  BI_PARTY_INCOMPLETE: 'GOAML_BI_PARTY_INCOMPLETE',
  MULTI_PARTY_TOO_FEW: 'GOAML_MULTI_PARTY_TOO_FEW',
  ACTIVITY_NO_PARTIES: 'GOAML_ACTIVITY_NO_PARTIES',
  NO_INDICATORS: 'GOAML_NO_INDICATORS',
  AMOUNT_NOT_POSITIVE: 'GOAML_AMOUNT_NOT_POSITIVE',
  CODE_UNKNOWN: 'GOAML_CODE_UNKNOWN',
} as const;

export type CodeLists = Partial<Record<CodeListName, ReadonlySet<string>>>;

const asList = (v: GoamlValue | undefined): GoamlValue[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const isNode = (v: GoamlValue | undefined): v is GoamlNode => typeof v === 'object' && v !== null && !Array.isArray(v);
const filled = (v: GoamlValue | undefined) =>
  v !== undefined && (typeof v === 'string' ? v.trim() !== '' : Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0);
const at = (base: string, name: string, i?: number) => `${base ? `${base}.` : ''}${name}${i === undefined ? '' : `[${i}]`}`;

function valueAt(report: GoamlNode, path: string): GoamlValue | undefined {
  let cur: GoamlValue | undefined = report;
  for (const name of path.split('.')) cur = isNode(cur) ? cur[name] : undefined;
  return cur;
}

const FIELD_LIST = new Map<string, CodeListName>(
  (Object.entries(CODE_FIELDS) as [CodeListName, readonly string[]][]).flatMap(([list, names]) => names.map((n) => [n, list] as const)),
);
const AMOUNTS = new Set<string>(AMOUNT_FIELDS);

/** Walks every field: codes from the jurisdiction's lists, positive amounts. */
function walkFields(node: GoamlNode, base: string, lists: CodeLists, out: FilingFinding[]) {
  for (const [name, value] of Object.entries(node)) {
    const items = asList(value);
    items.forEach((item, i) => {
      const path = at(base, name, Array.isArray(value) ? i : undefined);
      if (isNode(item)) { walkFields(item, path, lists, out); return; }
      if (typeof item !== 'string') return;
      const list = FIELD_LIST.get(name);
      const codes = list ? lists[list] : undefined;
      if (codes && item.trim() !== '' && !codes.has(item)) {
        out.push({ code: RULE_CODES.CODE_UNKNOWN, path, source: 'rules', message: `"${item}" is not in the ${list} code list of the jurisdiction` });
      }
      if (AMOUNTS.has(name)) {
        const n = Number(item);
        if (!Number.isFinite(n) || n <= 0) out.push({ code: RULE_CODES.AMOUNT_NOT_POSITIVE, path, source: 'rules', message: `amount must be a positive number, got "${item}"` });
      }
    });
  }
}

const FROM_SIDES = ['t_from_my_client', 't_from'];
const TO_SIDES = ['t_to_my_client', 't_to'];

function transactionRules(tx: GoamlNode, path: string, out: FilingFinding[]) {
  const multi = filled(tx.involved_parties);
  const from = FROM_SIDES.filter((k) => filled(tx[k]));
  const to = TO_SIDES.filter((k) => filled(tx[k]));
  if (multi && (from.length || to.length)) {
    out.push({ code: RULE_CODES.PARTIES_MIXED, path, source: 'rules', message: 'a transaction is either bi-party (from/to) or multi-party (involved_parties), not both' });
    return;
  }
  if (multi) {
    const parties = isNode(tx.involved_parties) ? asList(tx.involved_parties.party) : [];
    if (parties.length < 2) out.push({ code: RULE_CODES.MULTI_PARTY_TOO_FEW, path: at(path, 'involved_parties'), source: 'rules', message: 'a multi-party transaction names at least two parties' });
    return;
  }
  if (from.length !== 1 || to.length !== 1) {
    out.push({ code: RULE_CODES.BI_PARTY_INCOMPLETE, path, source: 'rules', message: 'a bi-party transaction has exactly one from side and one to side' });
  }
}

export function businessRules(j: JurisdictionConfig, lists: CodeLists, report: GoamlNode): FilingFinding[] {
  const out: FilingFinding[] = [];
  const code = typeof report.report_code === 'string' ? report.report_code : '';
  const spec = j.reportCodes[code];
  if (!spec) out.push({ code: RULE_CODES.REPORT_CODE_UNKNOWN, path: 'report_code', source: 'rules', message: `report code "${code}" is not one of ${Object.keys(j.reportCodes).join(', ')}` });
  for (const path of j.mandatory) {
    if (!filled(valueAt(report, path))) out.push({ code: RULE_CODES.FIELD_REQUIRED, path, source: 'rules', message: `${path} is required by ${j.label}` });
  }
  const transactions = asList(report.transaction);
  const activity = report.activity;
  if (!transactions.length && !filled(activity)) {
    out.push({ code: RULE_CODES.NO_TRANSACTION_OR_ACTIVITY, path: '', source: 'rules', message: 'a report carries transactions or an activity' });
  } else if (transactions.length && filled(activity)) {
    out.push({ code: RULE_CODES.TRANSACTION_AND_ACTIVITY, path: 'activity', source: 'rules', message: 'a report carries transactions or an activity, not both' });
  } else if (spec && (spec.kind === 'transaction') !== transactions.length > 0) {
    out.push({ code: RULE_CODES.KIND_MISMATCH, path: spec.kind, source: 'rules', message: `report code ${code} is a${spec.kind === 'activity' ? 'n activity' : ' transaction'} report` });
  }
  const many = Array.isArray(report.transaction);
  transactions.forEach((tx, i) => { if (isNode(tx)) transactionRules(tx, at('', 'transaction', many ? i : undefined), out); });
  if (isNode(activity)) {
    const parties = isNode(activity.report_parties) ? asList(activity.report_parties.report_party) : [];
    if (!parties.length) out.push({ code: RULE_CODES.ACTIVITY_NO_PARTIES, path: 'activity.report_parties', source: 'rules', message: 'an activity names at least one party' });
  }
  const indicators = isNode(report.report_indicators) ? asList(report.report_indicators.indicator).filter(filled) : [];
  if (!indicators.length) out.push({ code: RULE_CODES.NO_INDICATORS, path: 'report_indicators', source: 'rules', message: 'at least one indicator is required' });
  walkFields(report, '', lists, out);
  return out;
}
