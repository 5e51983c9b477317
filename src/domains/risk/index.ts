// The risk area's public surface: what onboarding, records, CDD, cases and the pages use.
export * from './risk.types';
// ENGINE: the one scoring engine (docs/risk.md), its model and its reads.
export { scoreProfile, classForScore, policyFor, classOrdinal, higherClass, impactForVolume, IMPACT_AGGREGATE, IMPACT_KEY, type RegolaCaricata } from './engine/engine.score';
export { activeRuleSet, loadRuleSet, findRuleSet, thresholds } from './engine/engine.rulesets';
export { seedDefaultModel } from './engine/engine.seed';
export { buildProfiles, type BuildProfilesOptions } from './engine/engine.profiles';
export { scoreCustomers, recordScores, aggregatesFor, fieldsRead, type ScoreRecord, type OrigineCalcolo } from './engine/engine.customers';
export { emptyProfile, completeProfile, countries as normaliseCountries, normaliseAnswers, declaredVolume } from './engine/engine.profile';
export { riskLists, EEA, RISK_LIST_LABELS, RISK_LIST_NAMES, type RiskListName } from './engine/engine.lists';
export { DEFAULT_RULES, DEFAULT_FACTORS, DEFAULT_THRESHOLDS, modelId } from './engine/engine.default-model';
export { CLASSE_LABELS, FAMIGLIA_LABELS, LIVELLO_CDD_LABELS, APPROVAZIONE_LABELS, STATO_VERSIONE_LABELS } from './engine/engine.labels';
export { scoreApplicant, type ApplicantScore, type ApplicantFactor } from './engine/engine.applicant';
export { explainContribution } from './engine/engine.explain';
// Assessments (part ASSESS): start, read, transition, history, open a case; the list and the machine for the pages.
export * from './assessment';
