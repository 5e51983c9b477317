/** The filing area's public surface: what other areas may use. */
export { FILING_STATO_LABELS, FILING_TIPO_LABELS } from './filing.labels';
export { GOAML_JURISDICTIONS } from './goaml/jurisdiction';
