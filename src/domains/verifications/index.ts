// The verifications area's public surface (issue 13).
export * from './verifications.vocabulary';
// kyc: KYC and KYB verifications as durable processes (openVerification, getVerification, transitionVerification, checks, documentsChanged...).
export * from './kyc-kyb';
