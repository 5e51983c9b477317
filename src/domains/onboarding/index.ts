// The onboarding area's public surface.
export { customerSessionMiddleware } from './onboarding.session';
// Shared with the CDD area until the records area owns progressive codes (issue 11, core).
export { addYears, nextCode, REVIEW_YEARS_SETTING, type Serie } from './onboarding.records';
// The onboarding document store (content-addressed by SHA-256) and its type check: the CDD evidence uses them too.
export { DocumentStore, sniffDocument } from './document-store';
