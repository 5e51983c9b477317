import { readFileSync } from 'node:fs';
import { emptyEntry, uniq, type ListEntry, type Schema } from '../types';
import { countryCode } from './countries';
import { parseLooseDates } from './dates';

export interface FtmEntity {
  id: string;
  schema?: string;
  caption?: string;
  properties?: Record<string, string[]>;
  datasets?: string[];
}

export interface FtmDeltaOp {
  op: 'ADD' | 'MOD' | 'DEL';
  entity: FtmEntity;
}

const SCHEMA: Record<string, Schema> = {
  Person: 'Person', Company: 'Company', Organization: 'Organization', PublicBody: 'Organization',
  LegalEntity: 'Unknown', Vessel: 'Vessel', Airplane: 'Aircraft',
};

/** FtM properties that carry identifiers, with the label shown to analysts. */
const ID_PROPS: Record<string, string> = {
  idNumber: 'ID', passportNumber: 'Passport', innCode: 'INN', ogrnCode: 'OGRN', kppCode: 'KPP',
  registrationNumber: 'Registration Number', taxNumber: 'Tax ID', imoNumber: 'IMO', mmsi: 'MMSI',
  swiftBic: 'SWIFT/BIC', leiCode: 'LEI', vatCode: 'VAT', permId: 'PermID', uniqueEntityId: 'UEI',
  callSign: 'Call Sign', registrationNumberAircraft: 'Aircraft Registration',
};

/** Reads newline-delimited FtM JSON (one entity or delta operation per line); empty files give []. */
export function parseJsonLines<T>(text: string): T[] {
  return text.split('\n').map((l) => l.trim()).filter(Boolean).map((l) => JSON.parse(l) as T);
}

/**
 * Turns FtM entities into list entries. Address, Sanction and CryptoWallet entities are
 * resolved onto the entity they describe; relationship schemas are dropped.
 */
export function ftmToEntries(entities: FtmEntity[], list = 'opensanctions'): ListEntry[] {
  const byId = new Map(entities.map((e) => [e.id, e]));
  const sanctionsOf = new Map<string, string[]>();
  const walletsOf = new Map<string, { currency: string; address: string }[]>();
  for (const e of entities) {
    const p = e.properties ?? {};
    if (e.schema === 'Sanction') {
      for (const target of p.entity ?? []) {
        sanctionsOf.set(target, [...(sanctionsOf.get(target) ?? []), ...(p.programId ?? p.program ?? [])]);
      }
    }
    if (e.schema === 'CryptoWallet') {
      for (const holder of p.holder ?? []) {
        const wallets = (p.publicKey ?? []).map((address) => ({ currency: (p.currency?.[0] ?? '').toUpperCase(), address }));
        walletsOf.set(holder, [...(walletsOf.get(holder) ?? []), ...wallets]);
      }
    }
  }
  const out: ListEntry[] = [];
  for (const e of entities) {
    const schema = SCHEMA[e.schema ?? ''];
    if (!schema) continue;
    const p = e.properties ?? {};
    const names = uniq([...(p.name ?? []), ...(e.caption ? [e.caption] : [])]);
    const primary = e.caption ?? names[0] ?? '';
    const entry = emptyEntry(list, `os:${e.id}`, schema, primary);
    const add = (vals: string[] | undefined, type: string, quality?: 'weak' | 'strong') => {
      for (const name of vals ?? []) {
        if (name !== primary) entry.aliases.push({ name, type, ...(quality ? { quality } : {}) });
      }
    };
    add(names, 'name');
    add(p.alias, 'aka', 'strong');
    add(p.previousName, 'fka', 'strong');
    add(p.weakAlias, 'aka', 'weak');
    entry.aliases = uniq(entry.aliases.map((a) => JSON.stringify(a))).map((a) => JSON.parse(a));
    entry.birthDates = uniq((p.birthDate ?? []).flatMap(parseLooseDates));
    entry.nationalities = uniq([...(p.nationality ?? []), ...(p.citizenship ?? [])].map((c) => countryCode(c)!));
    entry.countries = uniq([...(p.country ?? []), ...(p.jurisdiction ?? [])].map((c) => countryCode(c)!));
    const g = p.gender?.[0]?.toLowerCase();
    if (g === 'male' || g === 'female') entry.gender = g;
    for (const [prop, type] of Object.entries(ID_PROPS)) {
      for (const value of p[prop] ?? []) entry.identifiers.push({ type, value });
    }
    entry.identifiers = uniq(entry.identifiers.map((i) => JSON.stringify(i))).map((i) => JSON.parse(i));
    for (const text of p.address ?? []) entry.addresses.push({ text });
    for (const ref of p.addressEntity ?? []) {
      const a = byId.get(ref)?.properties;
      if (!a) continue;
      const country = countryCode(a.country?.[0]);
      entry.addresses.push({ text: a.full?.[0] ?? [a.street?.[0], a.city?.[0], a.postalCode?.[0]].filter(Boolean).join(', '),
        ...(a.city?.[0] ? { city: a.city[0] } : {}), ...(country ? { country } : {}) });
    }
    entry.cryptoAddresses = walletsOf.get(e.id) ?? [];
    entry.programs = uniq([...(p.programId ?? []), ...(sanctionsOf.get(e.id) ?? [])]);
    const notes = (p.notes ?? []).join(' ');
    if (notes) entry.remarks = notes;
    out.push(entry);
  }
  return out;
}

/** Applies delta operations in order: ADD/MOD replace the whole entity, DEL removes it. */
export function applyFtmDeltas(base: Map<string, FtmEntity>, ops: FtmDeltaOp[]): Map<string, FtmEntity> {
  const next = new Map(base);
  for (const { op, entity } of ops) {
    if (op === 'DEL') next.delete(entity.id);
    else next.set(entity.id, entity);
  }
  return next;
}

export function readFtmFile(path: string): FtmEntity[] {
  return parseJsonLines<FtmEntity>(readFileSync(path, 'utf8'));
}

export function readFtmDeltaFile(path: string): FtmDeltaOp[] {
  return parseJsonLines<FtmDeltaOp>(readFileSync(path, 'utf8'));
}
