import ExcelJS from 'exceljs';
import { emptyEntry, uniq, type ListEntry, type Schema } from '../types';
import { countryCode } from './countries';
import { parseLooseDates } from './dates';

/** Header names of the OFSI consolidated list workbook (row 2; row 1 carries the "Last Updated" date). */
const H = {
  names: ['Name 1', 'Name 2', 'Name 3', 'Name 4', 'Name 5', 'Name 6'],
  title: 'Title', nonLatin: 'Name Non-Latin Script', dob: 'DOB', nationality: 'Nationality',
  passport: 'Passport Number', passportDetails: 'Passport Details', nationalId: 'National Identification Number',
  nationalIdDetails: 'National Identification Details',
  address: ['Address 1', 'Address 2', 'Address 3', 'Address 4', 'Address 5', 'Address 6', 'Post/Zip Code'],
  country: 'Country', other: 'Other Information', groupType: 'Group Type', aliasType: 'Alias Type',
  aliasQuality: 'Alias Quality', regime: 'Regime', groupId: 'Group ID',
} as const;

export interface UkImportStats {
  nameRows: number;
  targets: number;
}

const cellText = (v: ExcelJS.CellValue): string | undefined => {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'object' && 'richText' in v) return v.richText.map((r) => r.text).join('').trim() || undefined;
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  const s = String(v).trim();
  return s || undefined;
};

/** "(1) Cyprus (2) Russia" -> ["Cyprus", "Russia"] */
const numbered = (s: string | undefined): string[] =>
  !s ? [] : s.split(/\(\d+\)/).map((x) => x.trim().replace(/[.,]$/, '')).filter(Boolean);

function schemaOf(groupType: string | undefined): Schema {
  switch (groupType?.toLowerCase()) {
    case 'individual': return 'Person';
    case 'entity': return 'Organization';
    case 'ship': return 'Vessel';
    default: return 'Unknown';
  }
}

/**
 * OFSI publishes one row per name variant; rows sharing a Group ID are one target.
 * The "Primary name" row gives the entry name, the others become aliases.
 */
export async function parseUkXlsx(bytes: Buffer | ArrayBuffer | string, listName = 'gb_hmt_sanctions'):
  Promise<{ entries: ListEntry[]; stats: UkImportStats }> {
  const wb = new ExcelJS.Workbook();
  if (typeof bytes === 'string') await wb.xlsx.readFile(bytes);
  else await wb.xlsx.load(bytes as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  let headerRow = 0;
  const col = new Map<string, number>();
  ws.eachRow((row, i) => {
    if (headerRow) return;
    const vals = row.values as ExcelJS.CellValue[];
    if (vals.some((v) => cellText(v) === 'Group ID')) {
      headerRow = i;
      vals.forEach((v, idx) => { const t = cellText(v); if (t) col.set(t, idx); });
    }
  });
  if (!headerRow) throw new Error('UK list: header row with "Group ID" not found');

  const groups = new Map<string, ListEntry>();
  let nameRows = 0;
  ws.eachRow((row, i) => {
    if (i <= headerRow) return;
    const vals = row.values as ExcelJS.CellValue[];
    const get = (h: string) => cellText(vals[col.get(h) ?? -1]);
    const groupId = get(H.groupId);
    if (!groupId) return;
    nameRows++;
    // Name 6 is the surname; Name 1..5 the given / other names.
    const given = H.names.slice(0, 5).map(get).filter(Boolean).join(' ');
    const last = get('Name 6');
    const name = [given, last].filter(Boolean).join(' ');
    let e = groups.get(groupId);
    if (!e) {
      e = emptyEntry(listName, `uk:${groupId}`, schemaOf(get(H.groupType)), '');
      groups.set(groupId, e);
    }
    const aliasType = get(H.aliasType);
    const quality = get(H.aliasQuality);
    if (aliasType === 'Primary name' && !e.name) e.name = name;
    else if (name) {
      e.aliases.push({
        name, type: aliasType?.toLowerCase() ?? 'aka',
        ...(quality ? { quality: /low/i.test(quality) ? 'weak' as const : 'strong' as const } : {}),
      });
    }
    const nonLatin = get(H.nonLatin);
    if (nonLatin) e.aliases.push({ name: nonLatin, type: 'original-script' });
    e.birthDates.push(...numbered(get(H.dob)).flatMap(parseLooseDates));
    e.nationalities.push(...numbered(get(H.nationality)).map((c) => countryCode(c)!).filter(Boolean));
    const passport = get(H.passport);
    if (passport) for (const p of numbered(passport)) e.identifiers.push({ type: 'Passport', value: p });
    const nid = get(H.nationalId);
    if (nid) for (const p of numbered(nid)) e.identifiers.push({ type: 'National ID', value: p });
    const addr = H.address.map(get).filter(Boolean);
    const country = countryCode(get(H.country));
    if (addr.length || country) e.addresses.push({ text: [...addr, get(H.country)].filter(Boolean).join(', '), ...(country ? { country } : {}) });
    if (country) e.countries.push(country);
    const regime = get(H.regime);
    if (regime) e.programs.push(regime);
    const other = get(H.other);
    if (other && !e.remarks) {
      e.remarks = other;
      const g = other.match(/\(Gender\):\s*(Male|Female)/i);
      if (g) e.gender = g[1]!.toLowerCase() as 'male' | 'female';
    }
  });
  const entries = [...groups.values()].map((e) => {
    if (!e.name && e.aliases.length) e.name = e.aliases.shift()!.name;
    const seen = new Set<string>([e.name]);
    e.aliases = e.aliases.filter((a) => !seen.has(a.name) && !!seen.add(a.name));
    e.birthDates = uniq(e.birthDates);
    e.nationalities = uniq(e.nationalities);
    e.countries = uniq(e.countries);
    e.programs = uniq(e.programs);
    e.identifiers = uniq(e.identifiers.map((x) => JSON.stringify(x))).map((x) => JSON.parse(x));
    e.addresses = uniq(e.addresses.map((x) => JSON.stringify(x))).map((x) => JSON.parse(x));
    return e;
  });
  return { entries, stats: { nameRows, targets: groups.size } };
}
