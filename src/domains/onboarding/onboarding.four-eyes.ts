import type { RiskResult } from '../../../workflows/onboarding/onboarding.contract';

/**
 * When an application needs a second approval (four eyes) by a different compliance officer:
 * a high or medium-high risk class, a PEP (art. 25 d.lgs. 231/2007: senior management
 * approval), any screening hit or any wallet on a list, even when the class is lower.
 */
export function secondApprovalRequired(r: Pick<RiskResult, 'classe' | 'pep' | 'screeningMatches' | 'walletHits'>): boolean {
  return r.classe === 'alto' || r.classe === 'medio_alto' || r.pep || r.screeningMatches > 0 || r.walletHits > 0;
}
