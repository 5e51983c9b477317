// The records area's public surface: the customer data model other areas build on.
export { nextCode, type Serie } from './records.codes';
export {
  codiceFiscaleCheckChar, decodeOmocodia, dedupeKey, isValidCodiceFiscale, isValidCodiceFiscalePersona, isValidPartitaIva, normalisePartitaIva, normaliseTaxId, partitaIvaCheckDigit, type TaxIdentity,
} from './tax-id';
export { Customer } from './customer.model';
export { CustomerVersion } from './customer-version.model';
export { Documento } from './documento.model';
export { Legame } from './legame.model';
export { Rapporto } from './rapporto.model';
export { RapportoSoggetto } from './rapporto-soggetto.model';
export {
  createCustomer, createOrMatchCustomer, customerAsOf, customerJson, getCustomer, openRelationshipsOf, softDeleteCustomer, updateCustomer,
  SCREENING_FIELDS, type CustomerFields, type CustomerPatch, type CustomerRow, type UpdateResult,
} from './records.commands';
export { setRiskClass, type SetRiskClassInput, type SetRiskClassResult } from './records.risk-class';
export { closeRapporto, createRapporto, type RapportoInput } from './relationships.commands';
export { createLegame, type LegameInput } from './links.commands';
export { createDocumento, type DocumentoInput } from './documents.commands';
export * from './records.vocabulary';
export * from './records.labels';
export { isoDate, todayInRome } from './records.dates';
export { declaredFromAnswers, declaredVolumes, yearlyVolumeOf, MAX_VOLUME_EUR, VOLUME_ANNUO_BANDS, type DeclaredFields } from './records.declared';
export { checkAteco, ATECO_FORMAT_MESSAGE, ATECO_DIVISION_MESSAGE } from './ateco';
export { checkExternalCode, CODICE_ESTERNO_MESSAGE } from './records.external-code';
// The customer's record as its pages read it (relationships, links, documents, versions): the dossier area prints it.
export { readCustomerRecord, type CustomerDocument, type CustomerLink, type CustomerRecord, type CustomerRelationship } from './anagrafe.read';
export { RAPPORTO_TIPO_LABELS } from './anagrafe.labels';
// A stored field as a person reads it (labels, dates, countries, the address): the dossier prints the identity with it.
export { formatFieldValue } from './anagrafe.history';
