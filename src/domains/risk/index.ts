// The risk area's public surface: what onboarding, records, CDD, cases and the pages use.
export * from './risk.types';
