import { countryName } from '../../onboarding';
import type { Contributo } from '../risk.types';

const COUNTRY = /^[A-Z]{2}$/;
const countryList = (codes: string[]) => codes.map((c) => `${countryName(c)} (${c})`).join(', ');

/**
 * One contribution in a sentence: the rule's name and the figures it read (counts, amounts,
 * countries). The country lists keep only the countries in the named list the rule compared
 * with, when the read says so (the onboarding pages show "Iran (IR)", not every country of the case).
 */
export function explainContribution(c: Contributo, liste: Readonly<Record<string, ReadonlySet<string>>> = {}, lista?: string): string {
  const parts: string[] = [];
  for (const l of c.letti) {
    const v = l.valore;
    if (typeof v === 'number') parts.push(Number.isInteger(v) ? String(v) : v.toLocaleString('it-IT', { maximumFractionDigits: 2 }));
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string' && COUNTRY.test(x.toUpperCase()))) {
      const set = lista ? liste[lista] : undefined;
      const codes = (v as string[]).map((x) => x.toUpperCase()).filter((x) => !set || set.has(x));
      if (codes.length) parts.push(countryList(codes));
    }
  }
  return parts.length ? `${c.nome}: ${parts.join('; ')}` : c.nome;
}
