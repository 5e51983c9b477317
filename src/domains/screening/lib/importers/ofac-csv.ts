import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { emptyEntry, uniq, type ListEntry, type Schema } from '../types';
import { countryCode } from './countries';
import { parseOfacRemarks } from './ofac-remarks';

export interface OfacCsvFiles {
  sdn: Buffer;
  alt?: Buffer;
  add?: Buffer;
  comments?: Buffer;
}

/** OFAC legacy files are Latin-1 with CRLF, "-0-" nulls and a DOS end-of-file byte. */
function rows(bytes: Buffer | undefined): string[][] {
  if (!bytes) return [];
  const text = bytes.toString('latin1').replaceAll(String.fromCharCode(0x1a), '');
  const records = parse(text, {
    relax_quotes: true, relax_column_count: true, skip_empty_lines: true, trim: false,
  }) as string[][];
  return records.map((r) => r.map((v) => v.trim())).filter((r) => r.length > 1 && /^\d+$/.test(r[0]!));
}

const val = (v: string | undefined): string | undefined => (v === undefined || v === '-0-' || v === '' ? undefined : v);

function schemaOf(type: string | undefined): Schema {
  switch (val(type)?.toLowerCase()) {
    case 'individual': return 'Person';
    case 'vessel': return 'Vessel';
    case 'aircraft': return 'Aircraft';
    default: return 'Organization';
  }
}

export function parseOfacCsv(files: OfacCsvFiles, list = 'us_ofac_sdn'): ListEntry[] {
  const overflow = new Map<string, string>();
  for (const r of rows(files.comments)) if (val(r[1])) overflow.set(r[0]!, r[1]!);

  const byId = new Map<string, ListEntry>();
  for (const r of rows(files.sdn)) {
    const num = r[0]!;
    const e = emptyEntry(list, `ofac:${num}`, schemaOf(r[2]), val(r[1]) ?? '');
    const programs = val(r[3]);
    if (programs) e.programs = programs.split(/\]\s*\[/).map((p) => p.replace(/[[\]]/g, '').trim()).filter(Boolean);
    // sdn.csv cuts long remarks; sdn_comments.csv holds the rest, to be appended without separator.
    const remarks = (val(r[11]) ?? '') + (overflow.get(num) ?? '');
    if (remarks) e.remarks = remarks;
    const parsed = parseOfacRemarks(remarks);
    e.birthDates = uniq(parsed.birthDates);
    e.nationalities = uniq(parsed.nationalities);
    if (parsed.gender) e.gender = parsed.gender;
    e.identifiers = parsed.identifiers;
    e.cryptoAddresses = parsed.cryptoAddresses;
    e.aliases = parsed.aliases;
    if (val(r[5])) e.identifiers.push({ type: 'Call Sign', value: r[5]! });
    const flag = val(r[9]);
    if (flag) e.countries.push(countryCode(flag)!);
    byId.set(num, e);
  }
  for (const r of rows(files.alt)) {
    const e = byId.get(r[0]!);
    const name = val(r[3]);
    if (!e || !name) continue;
    // Legacy alt.csv holds the strong a.k.a.s; weak ones live in the remarks.
    e.aliases.push({ name, type: val(r[2])?.toLowerCase() ?? 'aka', quality: 'strong' });
  }
  for (const r of rows(files.add)) {
    const e = byId.get(r[0]!);
    if (!e) continue;
    const parts = [val(r[2]), val(r[3]), val(r[4])].filter(Boolean) as string[];
    if (parts.length === 0) continue;
    const country = countryCode(val(r[4]));
    e.addresses.push({ text: parts.join(', '), ...(val(r[3]) ? { city: r[3] } : {}), ...(country ? { country } : {}) });
    if (country) e.countries.push(country);
  }
  for (const e of byId.values()) e.countries = uniq(e.countries);
  return [...byId.values()];
}

/** Reads an OFAC legacy CSV directory; alt/add/sdn_comments are optional (some dates only have sdn.csv). */
export function importOfacCsvDir(dir: string, list = 'us_ofac_sdn'): ListEntry[] {
  const read = (f: string) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f)) : undefined);
  const sdn = read('sdn.csv');
  if (!sdn) throw new Error(`no sdn.csv in ${dir}`);
  return parseOfacCsv({ sdn, alt: read('alt.csv'), add: read('add.csv'), comments: read('sdn_comments.csv') }, list);
}
