/** The filing area's public surface: what other areas may use. */
export { FILING_STATO_LABELS, FILING_TIPO_LABELS } from './filing.labels';
/** A filing draft made by another area (reporting turns a generated report into one). */
export { createFiling } from './filing.service';
export type { CreateFilingInput } from './filing.schemas';
