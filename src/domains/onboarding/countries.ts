import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../config';

const load = <T>(file: string): T => JSON.parse(readFileSync(join(projectRoot, 'data', 'reference', file), 'utf8')) as T;

/** ISO 3166-1 alpha-2 codes (data/reference, from the country-codes dataset). */
export const ISO2 = new Set(load<{ codes: string[] }>('iso3166-alpha2.json').codes);

/**
 * High-risk third countries of Delegated Regulation (EU) 2016/1675 as compiled in
 * data/reference (see its _note and as_of: verify against EUR-Lex before relying on it).
 */
const HIGH_RISK = load<{ as_of: string; countries: { iso2: string; name: string }[] }>('eu-high-risk-third-countries.COMPILED.json');
export const EU_HIGH_RISK = new Set(HIGH_RISK.countries.map((c) => c.iso2));
export const EU_HIGH_RISK_AS_OF = HIGH_RISK.as_of;

const names = new Intl.DisplayNames(['it'], { type: 'region' });
export const countryName = (code: string) => { try { return names.of(code) ?? code; } catch { return code; } };

/** Options for a country select, in Italian, sorted by name. */
export const COUNTRY_OPTIONS = [...ISO2].map((code) => ({ code, nome: countryName(code) })).sort((a, b) => a.nome.localeCompare(b.nome, 'it'));
