import { highRiskLists } from '../../cdd';
import { COUNTRY_OPTIONS } from '../../onboarding';

/**
 * The named country lists the rules may read ({ lista: 'paesi_alto_rischio' }): the EU list
 * of high-risk third countries (Delegated Regulation (EU) 2016/1675), the FATF lists and
 * the EEA, all from data/reference through the CDD area (one copy of each list in the product).
 */

/** EU member states and the other EEA states (Iceland, Liechtenstein, Norway). */
export const EEA: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO',
  'SK', 'SI', 'ES', 'SE', 'IS', 'LI', 'NO',
]);

export const RISK_LIST_LABELS = {
  paesi_alto_rischio: 'Paesi terzi ad alto rischio (Reg. delegato UE 2016/1675)',
  paesi_gafi_black: 'Paesi GAFI "call for action"',
  paesi_gafi_grey: 'Paesi GAFI sotto monitoraggio rafforzato',
  paesi_see: 'Spazio economico europeo',
  paesi_extra_see: 'Paesi fuori dallo Spazio economico europeo',
} as const;
export type RiskListName = keyof typeof RISK_LIST_LABELS;
export const RISK_LIST_NAMES: ReadonlySet<string> = new Set(Object.keys(RISK_LIST_LABELS));

let cached: Record<RiskListName, ReadonlySet<string>> | undefined;

/** The lists passed to the evaluator and to the movement aggregates (read once). */
export function riskLists(): Record<RiskListName, ReadonlySet<string>> {
  if (cached) return cached;
  const l = highRiskLists();
  // The complement of the EEA among ISO 3166 codes: "some country outside the EEA" is then an intersection.
  const extraSee = new Set(COUNTRY_OPTIONS.map((c) => c.code).filter((c) => !EEA.has(c)));
  cached = { paesi_alto_rischio: l.eu, paesi_gafi_black: l.fatfBlack, paesi_gafi_grey: l.fatfGrey, paesi_see: EEA, paesi_extra_see: extraSee };
  return cached;
}
