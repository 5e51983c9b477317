import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { emptyEntry, uniq, type ListEntry, type Schema } from '../types';
import { countryCode } from './countries';
import { parseLooseDates } from './dates';

type Node = Record<string, unknown>;
const ARRAYS = new Set(['sanctionEntity', 'nameAlias', 'birthdate', 'citizenship', 'identification', 'address', 'regulation', 'remark']);
const arr = (v: unknown): Node[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]) as Node[];
const attr = (n: Node, k: string): string | undefined => {
  const v = n[`@_${k}`];
  const s = v === undefined || v === null ? '' : String(v).trim();
  return s || undefined;
};

function schemaOf(code: string | undefined): Schema {
  switch (code?.toLowerCase()) {
    case 'person': return 'Person';
    case 'enterprise': return 'Company';
    case 'vessel': return 'Vessel';
    default: return 'Organization';
  }
}

/**
 * EU consolidated financial sanctions list (FSF XML 1.1): export/sanctionEntity with
 * nameAlias@wholeName (@strong), birthdate@birthdate|@year, citizenship@countryIso2Code,
 * identification@number, address, subjectType@code and the entity's @logicalId / @euReferenceNumber.
 */
export function parseEuXml(xml: string | Buffer, list = 'eu_fsf'): ListEntry[] {
  const parser = new XMLParser({
    ignoreAttributes: false, attributeNamePrefix: '@_', parseAttributeValue: false, removeNSPrefix: true,
    isArray: (name) => ARRAYS.has(name),
  });
  const doc = parser.parse(xml) as { export?: Node };
  const out: ListEntry[] = [];
  for (const se of arr(doc.export?.sanctionEntity)) {
    const aliases = arr(se.nameAlias).map((a) => ({ name: attr(a, 'wholeName') ?? '', strong: attr(a, 'strong'), gender: attr(a, 'gender') }))
      .filter((a) => a.name);
    const subject = arr(se.subjectType)[0] ?? (se.subjectType as Node | undefined);
    const id = attr(se, 'logicalId') ?? attr(se, 'euReferenceNumber') ?? String(out.length);
    const e = emptyEntry(list, `eu:${id}`, schemaOf(subject ? attr(subject, 'code') : undefined), aliases[0]?.name ?? '');
    e.aliases = aliases.slice(1).map((a) => ({
      name: a.name, type: 'aka', ...(a.strong ? { quality: a.strong === 'false' ? 'weak' as const : 'strong' as const } : {}),
    }));
    const g = aliases.find((a) => a.gender)?.gender?.toUpperCase();
    if (g === 'M') e.gender = 'male';
    if (g === 'F') e.gender = 'female';
    for (const b of arr(se.birthdate)) {
      e.birthDates.push(...parseLooseDates(attr(b, 'birthdate') ?? attr(b, 'year')));
      const c = countryCode(attr(b, 'countryIso2Code'));
      if (c && c !== '00') e.countries.push(c);
    }
    e.birthDates = uniq(e.birthDates);
    e.nationalities = uniq(arr(se.citizenship).map((c) => countryCode(attr(c, 'countryIso2Code'))).filter((c): c is string => !!c && c !== '00'));
    for (const i of arr(se.identification)) {
      const value = attr(i, 'number');
      if (!value) continue;
      const country = countryCode(attr(i, 'countryIso2Code'));
      e.identifiers.push({ type: attr(i, 'identificationTypeDescription') ?? attr(i, 'identificationTypeCode') ?? 'ID', value,
        ...(country && country !== '00' ? { country } : {}) });
    }
    for (const a of arr(se.address)) {
      const country = countryCode(attr(a, 'countryIso2Code'));
      const text = ['street', 'poBox', 'city', 'zipCode', 'region', 'countryDescription'].map((k) => attr(a, k)).filter(Boolean).join(', ');
      if (!text) continue;
      e.addresses.push({ text, ...(attr(a, 'city') ? { city: attr(a, 'city') } : {}), ...(country && country !== '00' ? { country } : {}) });
      if (country && country !== '00') e.countries.push(country);
    }
    e.countries = uniq(e.countries);
    e.programs = uniq(arr(se.regulation).map((r) => attr(r, 'programme')).filter((p): p is string => !!p));
    const ref = attr(se, 'euReferenceNumber');
    if (ref) e.identifiers.push({ type: 'EU Reference Number', value: ref });
    const remarks = arr(se.remark).map((r) => (typeof r === 'string' ? r : String((r as Node)['#text'] ?? ''))).filter(Boolean);
    if (remarks.length) e.remarks = remarks.join(' ');
    out.push(e);
  }
  return out;
}

export function importEuXmlFile(path: string, list?: string): ListEntry[] {
  return parseEuXml(readFileSync(path), list);
}
