// The verifications area's public surface (issue 13).
export * from './verifications.vocabulary';
// Travel rule (part 5): transfers on IVMS101 data, their screening, rules and decisions.
export * from './travel-rule';
