// The onboarding area's public surface.
export { customerSessionMiddleware } from './onboarding.session';
// Progressive codes and the EU high-risk third countries, until the records area owns them (issue 11).
export { nextCode, type Serie } from './onboarding.records';
// The country list of the forms (ISO 3166-1 alpha-2, Italian names), shared with the customer records' forms.
export { COUNTRY_OPTIONS, countryName, EU_HIGH_RISK, EU_HIGH_RISK_AS_OF } from './countries';
