// The onboarding area's public surface.
export { customerSessionMiddleware } from './onboarding.session';
// The country list of the forms (ISO 3166-1 alpha-2, Italian names), shared with the customer records' forms.
export { COUNTRY_OPTIONS, countryName } from './countries';
