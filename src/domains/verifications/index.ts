// The verifications area's public surface (issue 13).
export * from './verifications.vocabulary';
