import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { emptyEntry, uniq, type ListEntry, type NameAlias } from '../types';
import { countryCode } from './countries';
import { parseLooseDates } from './dates';

type Node = Record<string, unknown>;

const ARRAYS = new Set([
  'INDIVIDUAL', 'ENTITY', 'INDIVIDUAL_ALIAS', 'ENTITY_ALIAS', 'INDIVIDUAL_ADDRESS', 'ENTITY_ADDRESS',
  'INDIVIDUAL_DATE_OF_BIRTH', 'INDIVIDUAL_PLACE_OF_BIRTH', 'INDIVIDUAL_DOCUMENT', 'VALUE', 'NATIONALITY',
]);

const text = (v: unknown): string | undefined => {
  if (v === undefined || v === null || typeof v === 'object') return undefined;
  const s = String(v).replace(/\s+/g, ' ').trim();
  return s || undefined;
};
const list = (v: unknown): Node[] => (Array.isArray(v) ? v : v === undefined || v === '' ? [] : [v]) as Node[];
const values = (v: unknown): string[] =>
  list(v).flatMap((n) => list((n as Node).VALUE).map(text)).filter((s): s is string => !!s);

/** UN grades aliases "Good" / "Low"; a.k.a. without grade counts as strong. */
function aliasQuality(q: string | undefined): 'weak' | 'strong' | undefined {
  if (!q) return undefined;
  return /low/i.test(q) ? 'weak' : 'strong';
}

function aliases(nodes: Node[]): NameAlias[] {
  const out: NameAlias[] = [];
  for (const a of nodes) {
    const name = text(a.ALIAS_NAME);
    if (!name) continue;
    const q = text(a.QUALITY);
    const quality = aliasQuality(q);
    out.push({ name, ...(q ? { type: q.toLowerCase() } : {}), ...(quality ? { quality } : {}) });
  }
  return out;
}

function addresses(nodes: Node[]) {
  return nodes.map((a) => {
    const parts = ['STREET', 'CITY', 'STATE_PROVINCE', 'ZIP_CODE', 'COUNTRY'].map((k) => text(a[k])).filter(Boolean);
    const country = countryCode(text(a.COUNTRY));
    return { text: parts.join(', '), ...(text(a.CITY) ? { city: text(a.CITY) } : {}), ...(country ? { country } : {}) };
  }).filter((a) => a.text);
}

export function parseUnXml(xml: string | Buffer, listName = 'un_sc_sanctions'): ListEntry[] {
  const parser = new XMLParser({ ignoreAttributes: true, parseTagValue: false, isArray: (n) => ARRAYS.has(n) });
  const doc = parser.parse(xml) as { CONSOLIDATED_LIST: { INDIVIDUALS?: Node; ENTITIES?: Node } };
  const root = doc.CONSOLIDATED_LIST;
  const out: ListEntry[] = [];
  for (const n of list(root.INDIVIDUALS?.INDIVIDUAL)) {
    const name = ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME'].map((k) => text(n[k])).filter(Boolean).join(' ');
    const e = emptyEntry(listName, `un:${text(n.REFERENCE_NUMBER) ?? text(n.DATAID)}`, 'Person', name);
    fill(e, n, 'INDIVIDUAL');
    const g = text(n.GENDER)?.toLowerCase();
    if (g === 'male' || g === 'female') e.gender = g;
    e.nationalities = uniq(values(n.NATIONALITY).map((v) => countryCode(v)!).filter(Boolean));
    for (const d of list(n.INDIVIDUAL_DATE_OF_BIRTH)) {
      const date = text(d.DATE) ?? text(d.YEAR);
      if (date) e.birthDates.push(...parseLooseDates(date));
      const from = text(d.FROM_YEAR), to = text(d.TO_YEAR);
      if (from && to) e.birthDates.push(...parseLooseDates(`${from} to ${to}`));
    }
    e.birthDates = uniq(e.birthDates);
    for (const d of list(n.INDIVIDUAL_DOCUMENT)) {
      const value = text(d.NUMBER);
      if (!value) continue;
      const country = countryCode(text(d.ISSUING_COUNTRY) ?? text(d.COUNTRY_OF_ISSUE));
      e.identifiers.push({ type: text(d.TYPE_OF_DOCUMENT) ?? 'Document', value, ...(country ? { country } : {}) });
    }
    out.push(e);
  }
  for (const n of list(root.ENTITIES?.ENTITY)) {
    const e = emptyEntry(listName, `un:${text(n.REFERENCE_NUMBER) ?? text(n.DATAID)}`, 'Organization', text(n.FIRST_NAME) ?? '');
    fill(e, n, 'ENTITY');
    out.push(e);
  }
  return out;
}

function fill(e: ListEntry, n: Node, kind: 'INDIVIDUAL' | 'ENTITY') {
  e.aliases = aliases(list(n[`${kind}_ALIAS`]));
  const original = text(n.NAME_ORIGINAL_SCRIPT);
  if (original) e.aliases.push({ name: original, type: 'original-script', quality: 'strong' });
  e.addresses = addresses(list(n[`${kind}_ADDRESS`]));
  e.countries = uniq(e.addresses.map((a) => a.country).filter((c): c is string => !!c));
  const program = text(n.UN_LIST_TYPE);
  if (program) e.programs = [program];
  const remarks = text(n.COMMENTS1);
  if (remarks) e.remarks = remarks;
}

export function importUnXmlFile(path: string, listName?: string): ListEntry[] {
  return parseUnXml(readFileSync(path), listName);
}
