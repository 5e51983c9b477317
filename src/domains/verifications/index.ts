// The verifications area's public surface (issue 13).
export * from './verifications.vocabulary';
// Document records (part docs): MRZ (ICAO 9303) and codice fiscale checks.
export { checkDigit, codiceFiscaleMismatches, parseMrz, verifyDocument, type DocumentCheck, type MrzFields, type MrzResult } from './documents';
// kyc: KYC and KYB verifications as durable processes (openVerification, getVerification, transitionVerification, checks, documentsChanged...).
export * from './kyc-kyb';
// ubo: the corporate structure and its beneficial owners (computeUbo, seedStructure, structureView...).
export * from './structure';
