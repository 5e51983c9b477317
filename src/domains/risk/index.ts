// The risk area's public surface: what onboarding, records, CDD, cases and the pages use.
export * from './risk.types';
// Assessments (part ASSESS): start, read, transition, history, open a case; the list and the machine for the pages.
export * from './assessment';
