import type { Classe, StatoVersione } from '../risk.types';

/** The area's words come from the engine's dictionary (one per area); the pages add only the badge colours. */
export { APPROVAZIONE_LABELS, CLASSE_LABELS, FAMIGLIA_LABELS, LIVELLO_CDD_LABELS, STATO_VERSIONE_LABELS } from '../index';

export const CLASSE_TONES: Record<Classe, string> = { basso: 'green', medio: 'yellow', medio_alto: 'orange', alto: 'red' };
export const STATO_VERSIONE_TONES: Record<StatoVersione, string> = { draft: 'azure', active: 'green', retired: 'secondary' };
