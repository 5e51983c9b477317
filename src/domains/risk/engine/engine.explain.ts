import { countryName } from '../../onboarding';
import type { Contributo } from '../risk.types';

const COUNTRY = /^[A-Z]{2}$/;
const countryList = (codes: string[]) => codes.map((c) => `${countryName(c)} (${c})`).join(', ');

const eur = (v: number) => `${v.toLocaleString('it-IT', { maximumFractionDigits: 0 })} €`;
/** A figure with what it is: amounts in euro, shares in per cent, ratios with two decimals, counts as they are. */
function numberRead(path: string, v: number): string {
  const fn = path.startsWith('aggregato:') ? path.split(':')[1] : undefined;
  if (path === 'dichiarato.volume_annuo_eur') return `dichiarati ${eur(v)}`;
  if (fn === 'sum') return `movimentati ${eur(v)}`;
  if (fn === 'cash_share') return `contanti ${(v * 100).toLocaleString('it-IT', { maximumFractionDigits: 0 })}%`;
  if (fn === 'ratio_declared' || fn === 'ratio_history') return `rapporto ${v.toLocaleString('it-IT', { maximumFractionDigits: 2 })}`;
  return v.toLocaleString('it-IT', { maximumFractionDigits: 2 });
}

/**
 * One contribution in a sentence: the rule's name and the figures it read (counts, amounts,
 * countries). The country lists keep only the countries in the named list the rule compared
 * with, when the read says so (the onboarding pages show "Iran (IR)", not every country of the case).
 */
export function explainContribution(c: Contributo, liste: Readonly<Record<string, ReadonlySet<string>>> = {}, lista?: string): string {
  const parts: string[] = [];
  for (const l of c.letti) {
    const v = l.valore;
    if (typeof v === 'number') parts.push(numberRead(l.path, v));
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string' && COUNTRY.test(x.toUpperCase()))) {
      const set = lista ? liste[lista] : undefined;
      const codes = (v as string[]).map((x) => x.toUpperCase()).filter((x) => !set || set.has(x));
      if (codes.length) parts.push(countryList(codes));
    }
  }
  return parts.length ? `${c.nome}: ${parts.join('; ')}` : c.nome;
}
