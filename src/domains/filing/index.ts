/** The filing area's public surface: what other areas may use. */
export { FILING_STATO_LABELS, FILING_TIPO_LABELS } from './filing.labels';
/** A filing draft made by another area (reporting turns a generated report into one; SOS a goAML STR). */
export { createFiling } from './filing.service';
export type { CreateFilingInput } from './filing.schemas';
export type { GoamlNode } from './goaml/report-xml';
export { loadJurisdiction, type LoadedJurisdiction } from './goaml/jurisdiction-loader';
export { renderAndValidate, type GoamlVerdict } from './goaml/package';
export { reportOf } from './filing.content';
