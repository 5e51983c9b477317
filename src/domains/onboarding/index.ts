// The onboarding area's public surface.
export { customerSessionMiddleware } from './onboarding.session';
// The EU high-risk third countries (Delegated Regulation (EU) 2016/1675): the EDD reasons read them.
export { EU_HIGH_RISK, EU_HIGH_RISK_AS_OF } from './countries';
// Shared with the CDD area (periodic review years per class).
export { addYears, REVIEW_YEARS_SETTING } from './onboarding.records';
// The onboarding document store (content-addressed by SHA-256) and its type check: the CDD evidence uses them too.
export { DocumentStore, sniffDocument } from './document-store';
