/** Imports have no surface other areas call; their kinds use the records and movements areas' commands. */
export { IMPORT_TIPI, type ImportTipo } from './import-kind';
