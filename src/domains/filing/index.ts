/** The filing area's public surface: what other areas may use. */
export { FILING_STATO_LABELS, FILING_TIPO_LABELS } from './filing.labels';
export type { GoamlNode } from './goaml/report-xml';
export { loadJurisdiction, type LoadedJurisdiction } from './goaml/jurisdiction-loader';
export { renderAndValidate, type GoamlVerdict } from './goaml/package';
export { reportOf } from './filing.content';
export { createFiling } from './filing.service';
