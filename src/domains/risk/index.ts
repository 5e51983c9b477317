// The risk area's public surface: what onboarding, records, CDD, cases and the pages use.
export * from './risk.types';
// ENGINE: the one scoring engine (docs/risk.md), its model and its reads.
export { scoreProfile, compiledRules, type RegoleCompilate, classForScore, policyFor, classOrdinal, higherClass, impactForVolume, IMPACT_AGGREGATE, IMPACT_KEY, type RegolaCaricata } from './engine/engine.score';
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
// ENGINE: the model's commands (factors, rule sets, rules, thresholds): each (deps, { codAzienda, actor, ... }) in a tenant transaction with its audit event.
export { listFactors, getFactor, createFactor, updateFactor, deactivateFactor, type FattoreVista } from './engine/engine.factor-commands';
export { listRuleSets, getRuleSet, createDraft, discardDraft, activateRuleSet, draftIssues, type VersioneSintesi, type VersioneDettaglio } from './engine/engine.ruleset-commands';
export { listRules, getRule, createRule, updateRule, deactivateRule, type RegolaVista } from './engine/engine.rule-commands';
export { listThresholds, createThreshold, updateThreshold, orderIssue } from './engine/engine.threshold-commands';
export type { ModelDeps, ModelCall } from './engine/engine.commands.shared';
export { PROFILE_FIELDS, isKnownField, validateRuleCondition } from './engine/engine.catalogue';
export {
  riskConditionSchema, factorCreateSchema, factorUpdateSchema, ruleCreateSchema, ruleUpdateSchema, thresholdCreateSchema, thresholdUpdateSchema, draftCreateSchema,
  type FactorCreate, type FactorUpdate, type RuleCreate, type RuleUpdate, type ThresholdCreate, type ThresholdUpdate,
} from './engine/engine.schemas';
// Assessments (part ASSESS): start, read, transition, history, open a case; the list and the machine for the pages.
export * from './assessment';
// self: the self-assessment's method (Banca d'Italia 2019 residual matrix), for reports and other areas.
export { MATRICE_RESIDUO, overallResidual, residualRisk, type Livello, type Residuo } from './self/self.matrix';
