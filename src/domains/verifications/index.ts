// The verifications area's public surface (issue 13).
export * from './verifications.vocabulary';
// KYC and KYB verifications as durable processes (openVerification, getVerification, transitionVerification, checks, documentsChanged...).
export * from './kyc-kyb';
// The corporate structure and its beneficial owners (computeUbo, seedStructure, structureView...).
export * from './structure';
// Document records: MRZ (ICAO 9303) and codice fiscale checks.
export { checkDigit, codiceFiscaleMismatches, parseMrz, verifyDocument, type DocumentCheck, type MrzFields, type MrzResult } from './documents';
// Travel rule: transfers on IVMS101 data, their screening, rules and decisions.
export * from './travel-rule';
// The multipart reader of document forms (size limit, one file, Italian refusals): the document spine's upload uses it too.
export { DOCUMENT_READERS, DOCUMENT_WRITERS, megabytes, parseDocumentUpload, type ParsedUpload } from './documents/documents.upload';
