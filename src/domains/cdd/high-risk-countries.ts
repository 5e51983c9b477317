import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../config';

const load = <T>(file: string): T => JSON.parse(readFileSync(join(projectRoot, 'data', 'reference', file), 'utf8')) as T;

interface CountryList { as_of: string; countries: { iso2: string }[] }
interface FatfLists { as_of: string; call_for_action: { iso2: string }[]; increased_monitoring: { iso2: string }[] }

/** The member states of the Union: never "third countries", whatever list names them (a FATF grey listing of one is a risk factor handled elsewhere). */
export const EU_MEMBER_STATES: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
]);

/** The lists the level rules read (copies in data/reference, with their provenance notes and dates). */
export interface HighRiskLists {
  /** Annex of Delegated Regulation (EU) 2016/1675 as amended. */
  eu: ReadonlySet<string>;
  /** FATF "call for action" (black list). */
  fatfBlack: ReadonlySet<string>;
  /** FATF "jurisdictions under increased monitoring" (grey list). */
  fatfGrey: ReadonlySet<string>;
  asOf: { eu: string; fatf: string };
}

let cached: HighRiskLists | undefined;

/** Read once from data/reference: the application never reads ../shared at run time. */
export function highRiskLists(): HighRiskLists {
  if (cached) return cached;
  const eu = load<CountryList>('eu-high-risk-third-countries.COMPILED.json');
  const fatf = load<FatfLists>('fatf-lists.COMPILED.json');
  const third = (codes: { iso2: string }[]) => new Set(codes.map((c) => c.iso2).filter((c) => !EU_MEMBER_STATES.has(c)));
  cached = {
    eu: third(eu.countries), fatfBlack: third(fatf.call_for_action), fatfGrey: third(fatf.increased_monitoring),
    asOf: { eu: eu.as_of, fatf: fatf.as_of },
  };
  return cached;
}
