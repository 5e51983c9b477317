/** Exports have no surface other areas call: a list opts in with its `export` declaration (src/kit/list). */
export { EXPORT_FORMATS, type ExportFormat } from './export-writers';
