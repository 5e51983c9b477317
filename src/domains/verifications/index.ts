// The verifications area's public surface (issue 13).
export * from './verifications.vocabulary';
// kyc: KYC and KYB verifications as durable processes (openVerification, getVerification, transitionVerification, checks, documentsChanged...).
export * from './kyc-kyb';
// ubo: the corporate structure and its beneficial owners (computeUbo, seedStructure, structureView...).
export * from './structure';
