import type { ListEntry, Schema } from '../types';
import { countryCode } from '../importers/countries';
import { parseLooseDates } from '../importers/dates';
import type { EntryQualifiers } from './entry-store';
import { PENALTY } from './thresholds';

export interface QueryQualifiers {
  birthDate?: string;
  nationality?: string;
  gender?: 'male' | 'female';
}

export interface QualifierEffect {
  factor: number;
  notes: string[];
}

function datesCompatible(a: string, b: string): boolean {
  const n = Math.min(a.length, b.length);
  return a.slice(0, n) === b.slice(0, n);
}

/**
 * Date of birth, nationality and gender can only lower a name score: a listed entry without the
 * attribute, or a query without it, leaves the score as it is.
 */
export function qualifierEffect(q: QueryQualifiers, e: Pick<ListEntry, 'birthDates' | 'nationalities' | 'countries' | 'gender'> | EntryQualifiers): QualifierEffect {
  let factor = 1;
  const notes: string[] = [];
  const qDates = q.birthDate ? parseLooseDates(q.birthDate) : [];
  if (qDates.length && e.birthDates.length) {
    const exact = qDates.some((d) => e.birthDates.some((x) => datesCompatible(d, x)));
    if (!exact) {
      const near = qDates.some((d) => e.birthDates.some((x) => Math.abs(Number(d.slice(0, 4)) - Number(x.slice(0, 4))) <= 1));
      factor *= near ? PENALTY.dobYearNear : PENALTY.dobMismatch;
      notes.push(near ? 'date of birth differs slightly' : 'date of birth differs');
    }
  }
  const qc = countryCode(q.nationality);
  const known = [...e.nationalities, ...e.countries];
  if (qc && known.length && !known.includes(qc)) {
    factor *= PENALTY.nationalityMismatch;
    notes.push('nationality differs');
  }
  if (q.gender && e.gender && q.gender !== e.gender) {
    factor *= PENALTY.genderMismatch;
    notes.push('gender differs');
  }
  return { factor, notes };
}

const ORG_LIKE = new Set<Schema>(['Company', 'Organization']);

/** Persons only match persons well; Company and Organization are one family; Unknown fits all. */
export function schemaFactor(query: Schema | undefined, entry: Schema): number {
  if (!query || query === 'Unknown' || entry === 'Unknown' || query === entry) return 1;
  if (ORG_LIKE.has(query) && ORG_LIKE.has(entry)) return 1;
  return PENALTY.schemaMismatch;
}

export function isOrgSchema(s: Schema | undefined): boolean {
  return s === 'Company' || s === 'Organization' || s === 'Vessel' || s === 'Aircraft';
}
