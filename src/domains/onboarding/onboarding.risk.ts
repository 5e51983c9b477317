import type { RiskFactor, RiskResult, SubjectType } from '../../../workflows/onboarding/onboarding.contract';
import { cddWeights } from './onboarding.cdd-schema';
import { countryName, EU_HIGH_RISK } from './countries';

/**
 * The onboarding risk model: additive points per factor, a class by thresholds, and two
 * overrides that force 'alto'. Pure; documented with its rationale in docs/onboarding-risk.md.
 * A change of points or thresholds is a new RISK_MODEL version (stored with each result).
 */

export const RISK_MODEL = 'onb-risk-2026-1';

export const RISK_POINTS = {
  subjectType: { persona_fisica: 0, ditta_individuale: 5, societa: 10 } as Record<SubjectType, number>,
  highRiskCountry: 40,
  nonEeaCountry: 5,
  pep: 30,
  screeningMatch: 25,
  walletHit: 40,
  selfHostedWallet: 5,
  nonFaceToFace: 5,
} as const;

/** Class boundaries: score < medio → basso; < alto → medio; otherwise alto. */
export const RISK_THRESHOLDS = { medio: 20, alto: 40 } as const;

/** EU member states and the other EEA states (Iceland, Liechtenstein, Norway). */
export const EEA = new Set([
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO',
  'SK', 'SI', 'ES', 'SE', 'IS', 'LI', 'NO',
]);

export interface RiskInput {
  subjectType: SubjectType | null;
  /** Countries of operation (the applicant's declared list). */
  countries: string[];
  /** Nationalities of the subject, legal representative and beneficial owners. */
  nationalities: string[];
  /** Countries of residence, incorporation or seat of the same people and entity. */
  residences: string[];
  /** A PEP among the subject, the legal representative or any beneficial owner. */
  pep: boolean;
  /** Screening hits at or above the review threshold, across all subjects. */
  screeningMatches: number;
  /** Wallets found on a sanctions list. */
  walletHits: number;
  selfHostedWallets: number;
  canale: 'online' | 'sportello';
  cdd: { version: string | null; answers: Record<string, unknown> | null };
}

const uniq = (xs: string[]) => [...new Set(xs.filter(Boolean).map((x) => x.toUpperCase()))];
const names = (codes: string[]) => codes.map((c) => `${countryName(c)} (${c})`).join(', ');

export function riskClass(score: number): RiskResult['classe'] {
  if (score >= RISK_THRESHOLDS.alto) return 'alto';
  if (score >= RISK_THRESHOLDS.medio) return 'medio';
  return 'basso';
}

export function scoreRisk(input: RiskInput): RiskResult {
  const f: RiskFactor[] = [];
  const add = (codice: string, descrizione: string, punti: number) => { if (punti) f.push({ codice, descrizione, punti }); };

  if (input.subjectType) {
    const label = { persona_fisica: 'persona fisica', ditta_individuale: 'ditta individuale', societa: 'società (struttura societaria, titolarità effettiva da verificare)' }[input.subjectType];
    add('tipo_soggetto', `Tipo di cliente: ${label}`, RISK_POINTS.subjectType[input.subjectType]);
  }

  const all = uniq([...input.countries, ...input.nationalities, ...input.residences]);
  const highRisk = all.filter((c) => EU_HIGH_RISK.has(c));
  if (highRisk.length) add('paese_alto_rischio', `Collegamento con paesi terzi ad alto rischio (Reg. delegato UE 2016/1675): ${names(highRisk)}`, RISK_POINTS.highRiskCountry);
  const nonEea = all.filter((c) => !EEA.has(c) && !EU_HIGH_RISK.has(c));
  if (nonEea.length) add('paese_extra_see', `Collegamento con paesi fuori dallo Spazio economico europeo: ${names(nonEea)}`, RISK_POINTS.nonEeaCountry);

  if (input.pep) add('pep', 'Persona politicamente esposta tra cliente, legale rappresentante o titolari effettivi', RISK_POINTS.pep);
  if (input.screeningMatches > 0) add('screening', `Possibili corrispondenze con liste di sanzioni da esaminare: ${input.screeningMatches}`, RISK_POINTS.screeningMatch);
  if (input.walletHits > 0) add('wallet_sanzionato', `Wallet presenti in liste di sanzioni: ${input.walletHits}`, RISK_POINTS.walletHit);
  if (input.selfHostedWallets > 0) add('wallet_self_hosted', `Wallet self-hosted dichiarati: ${input.selfHostedWallets}`, RISK_POINTS.selfHostedWallet);
  if (input.canale === 'online') add('canale_remoto', 'Rapporto avviato a distanza, senza presenza fisica del cliente', RISK_POINTS.nonFaceToFace);

  for (const w of cddWeights(input.cdd.version, input.subjectType, input.cdd.answers)) {
    add(`cdd_${w.domanda}`, `${w.etichetta.replace(/\?$/, '')}: ${w.risposta}`, w.punti);
  }

  const score = Math.min(100, f.reduce((s, x) => s + x.punti, 0));
  // A high-risk third country (enhanced due diligence always applies: art. 24 c.5 d.lgs. 231/2007) or a sanctioned wallet is high risk whatever the sum.
  const forced = highRisk.length > 0 || input.walletHits > 0;
  const classe = forced ? 'alto' : riskClass(score);
  return {
    score, classe, fattori: f, pep: input.pep, screeningMatches: input.screeningMatches, walletHits: input.walletHits,
    secondApprovalRequired: classe === 'alto' || input.pep || input.screeningMatches > 0 || input.walletHits > 0,
    modello: RISK_MODEL,
  };
}
