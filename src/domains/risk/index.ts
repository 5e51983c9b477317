// The risk area's public surface: what onboarding, records, CDD, cases and the pages use.
export * from './risk.types';
// self: the self-assessment's method (Banca d'Italia 2019 residual matrix), for reports and other areas.
export { MATRICE_RESIDUO, overallResidual, residualRisk, type Livello, type Residuo } from './self/self.matrix';
