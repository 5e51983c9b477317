/** The reporting area's public surface: what other areas may use. */
export { REPORT_STATO_LABELS, REPORT_TIPO_LABELS } from './reporting.labels';
