// The cases area's public surface: what other areas may read of the investigation cases.
export { casesForCustomer, type CustomerCase } from './cases.customer';
// Other areas open an investigation case for their record (risk: from an assessment).
export { openCase as openInvestigationCase } from './cases.service';
export type { CreateCaseInput } from './cases.schemas';
