// The onboarding area's public surface.
export { customerSessionMiddleware } from './onboarding.session';
// Shared with the CDD area until the records area owns progressive codes (issue 11, core).
export { addYears, nextCode, REVIEW_YEARS_SETTING, type Serie } from './onboarding.records';
