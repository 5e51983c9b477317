import type { ImportTipo } from './import-kind';
import type { ImportStato } from './imports.repo';

/** Italian labels for everything a person sees about imports. */
export const TIPO_IMPORT_LABELS: Record<ImportTipo, string> = { clienti: 'Clienti', rapporti: 'Rapporti', movimenti: 'Movimenti' };
export const STATO_IMPORT_LABELS: Record<ImportStato, string> = { in_coda: 'In coda', in_corso: 'In corso', completato: 'Completata', fallito: 'Non riuscita' };
export const STATO_IMPORT_TONES: Record<ImportStato, string> = { in_coda: 'secondary', in_corso: 'blue', completato: 'green', fallito: 'red' };
