import type { RiskRunStato, RiskRunTipo } from '../../../../workflows/risk/risk-portfolio.contract';
import { CLASSI, type Classe } from '../risk.types';

/** Italian labels of the runs' codes (one dictionary for the pages of the runs). */
export const TIPO_RUN_LABELS: Record<RiskRunTipo, string> = { ricalcolo: 'Ricalcolo del portafoglio', simulazione: 'Simulazione' };
export const STATO_RUN_LABELS: Record<RiskRunStato, string> = { running: 'In corso', completed: 'Completata', failed: 'Non riuscita', cancelled: 'Annullata' };
export const STATO_RUN_TONES: Record<RiskRunStato, string> = { running: 'blue', completed: 'green', failed: 'red', cancelled: 'secondary' };
export const CLASSE_LABELS: Record<Classe | 'nessuna', string> = { basso: 'Basso', medio: 'Medio', medio_alto: 'Medio-alto', alto: 'Alto', nessuna: 'Nessuna classe' };
export const CLASSE_TONES: Record<Classe, string> = { basso: 'green', medio: 'yellow', medio_alto: 'orange', alto: 'red' };
export const STATO_VERSIONE_LABELS: Record<string, string> = { draft: 'bozza', active: 'attiva', retired: 'ritirata' };
export const CLASSI_LIST = CLASSI;
