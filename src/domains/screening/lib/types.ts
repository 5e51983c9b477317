/** Normalised sanctions-list entry shared by every importer and by the matcher. */
export type Schema = 'Person' | 'Company' | 'Organization' | 'Vessel' | 'Aircraft' | 'Unknown';

export const SCHEMAS: readonly Schema[] = ['Person', 'Company', 'Organization', 'Vessel', 'Aircraft', 'Unknown'];

export type AliasQuality = 'weak' | 'strong';

export interface NameAlias {
  name: string;
  /** aka / fka / nka / variant / original-script, as far as the source says */
  type?: string;
  /** Only set where the source grades the alias (OFAC weak a.k.a. in remarks, UN/UK quality). */
  quality?: AliasQuality;
}

export interface Identifier {
  type: string;
  value: string;
  country?: string;
}

export interface CryptoAddress {
  currency: string;
  address: string;
}

export interface ListAddress {
  text: string;
  city?: string;
  country?: string;
}

export interface ListEntry {
  list: string;
  id: string;
  schema: Schema;
  name: string;
  aliases: NameAlias[];
  /** ISO-8601 partial dates (YYYY, YYYY-MM, YYYY-MM-DD); ranges expanded to their years. */
  birthDates: string[];
  /** ISO 3166 alpha-2 lower case where the country could be resolved, else the source text lower case. */
  nationalities: string[];
  countries: string[];
  gender?: 'male' | 'female';
  addresses: ListAddress[];
  identifiers: Identifier[];
  cryptoAddresses: CryptoAddress[];
  programs: string[];
  remarks?: string;
}

export function emptyEntry(list: string, id: string, schema: Schema, name: string): ListEntry {
  return {
    list, id, schema, name,
    aliases: [], birthDates: [], nationalities: [], countries: [], addresses: [],
    identifiers: [], cryptoAddresses: [], programs: [],
  };
}

/** Removes duplicates while keeping first-seen order. */
export function uniq<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}
