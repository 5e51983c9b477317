// Document records (issue 13, part docs): the pure checks other parts may reuse, and the area's registrations.
export { checkDigit, normaliseMrz, parseMrz, type MrzCheck, type MrzFields, type MrzFormat, type MrzResult } from './mrz';
export { codiceFiscaleMismatches, nameCode, readCodiceFiscale, surnameCode, type CfMismatch } from './codice-fiscale-match';
export { CONTROLLI_DOCUMENTO, CONTROLLO_DOCUMENTO_LABELS, verifyDocument, type DocumentCheck, type DocumentVerification } from './document-checks';
export { documentRecordsList } from './documents.list';
export { registerDocumentRecordRoutes, DOCUMENT_RECORDS_API } from './documents.routes';
export { registerDocumentPages } from './documents.pages';
export { DOCUMENT_READERS, DOCUMENT_VERIFIERS, DOCUMENT_WRITERS } from './documents.upload';
