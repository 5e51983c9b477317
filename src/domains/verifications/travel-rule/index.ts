// Travel-rule transfers (part 5 of issue 13): what the area registration, the activities and the tests use.
export { validateIvms101, IVMS101_SCHEMA_FILE, type Ivms101Check } from './ivms101.validate';
export { readIvms101, type Ivms101Party, type Ivms101View } from './ivms101.read';
export { evaluateTravelRule, MAX_RICHIESTE_INFORMAZIONI, SOGLIA_PROVA_CONTROLLO_EUR, type RegolaValutata, type InformazioneMancante, type TravelRuleEvaluation, type TravelRuleFacts } from './travel-rule.rules';
export { evaluateTransfer, informationRequests, readTransfer, transferColumns, type TravelRuleRow } from './travel-rule.evaluate';
export { screenTransferParties } from './travel-rule.screening';
export { travelRuleProofMessage, checkProofOfControl, type ProvaControllo } from './travel-rule.proof';
export { decideTransfer, recordTransfer, requireTransfer, transferAllowedActions, transitionTransfer, type TravelRuleDeps } from './travel-rule.commands';
export { travelRuleList } from './travel-rule.list';
export { registerTravelRuleRoutes } from './travel-rule.routes';
export { registerTravelRulePages } from './travel-rule.pages';
export type { TravelRuleScreening } from './travel-rule.types';
