// The onboarding area's public surface.
export { customerSessionMiddleware } from './onboarding.session';
// The country list of the forms (ISO 3166-1 alpha-2, Italian names) and the EU high-risk third countries.
export { COUNTRY_OPTIONS, countryName, EU_HIGH_RISK, EU_HIGH_RISK_AS_OF } from './countries';
// The periodic review's interval per risk class, shared with the CDD area.
export { addYears, REVIEW_YEARS_SETTING } from './onboarding.records';
// The onboarding document store (content-addressed by SHA-256) and its type check: the CDD evidence uses them too.
export { DocumentStore, sniffDocument } from './document-store';
// Proof of control of a wallet (signed message): the travel-rule decisions check self-hosted addresses with it.
export { verifyWalletProof, type ProofCheck } from './wallet-proof';
