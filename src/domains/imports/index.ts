/** Imports: their kinds use the records and movements areas' commands; a file the platform writes itself is imported through importGeneratedFile. */
export { IMPORT_TIPI, type ImportTipo } from './import-kind';
export { importGeneratedFile } from './imports.commands';
export { getImportJob, type ImportJobRow } from './imports.repo';
