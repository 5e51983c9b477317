import { VALUTAZIONE_MOTIVO_LABELS, VALUTAZIONE_STATO_LABELS, VALUTAZIONE_STATO_TONES } from '../assessment/assessment.labels';
import { CLASSI, type Classe } from '../risk.types';

/** The Italian words of the risk pages (one dictionary for the portfolio, matrix and assessment pages). */
export const CLASSE_LABELS: Record<Classe, string> = { basso: 'Basso', medio: 'Medio', medio_alto: 'Medio-alto', alto: 'Alto' };
/** Tabler colours of the classes: the badges, the matrix cells and the charts' series. */
export const CLASSE_TONES: Record<Classe, string> = { basso: 'green', medio: 'azure', medio_alto: 'orange', alto: 'red' };
export const CLASSI_ORDINE: readonly Classe[] = CLASSI;

export const SEGMENTO_LABELS: Record<string, string> = { persona_fisica: 'Persona fisica', ditta_individuale: 'Ditta individuale', societa: 'Società' };

/** Probability is the class's ordinal, impact the band of the customer's yearly movement volume (docs/risk.md). */
export const PROBABILITA_LABELS: Record<number, string> = { 1: '1 · Bassa', 2: '2 · Media', 3: '3 · Medio-alta', 4: '4 · Alta' };
export const IMPATTO_LABELS: Record<number, string> = { 1: '1 · meno di 50.000 €', 2: '2 · fino a 250.000 €', 3: '3 · fino a 1 milione €', 4: '4 · oltre 1 milione €' };

/** The assessment process's own words (part ASSESS), so the pages and the diagram say the same. */
export const STATO_VALUTAZIONE_LABELS: Record<string, string> = VALUTAZIONE_STATO_LABELS;
export const STATO_VALUTAZIONE_TONES: Record<string, string> = VALUTAZIONE_STATO_TONES;
export const MOTIVO_VALUTAZIONE_LABELS: Record<string, string> = VALUTAZIONE_MOTIVO_LABELS;
export const FAMIGLIA_LABELS: Record<string, string> = { cliente: 'Cliente', geografia: 'Area geografica', prodotto: 'Prodotti e operatività', canale: 'Canale' };
export const ESECUZIONE_TIPO_LABELS: Record<string, string> = { ricalcolo: 'Ricalcolo del portafoglio', simulazione: 'Simulazione (prova a secco)' };
export const ESECUZIONE_STATO_LABELS: Record<string, string> = { running: 'In corso', completed: 'Completata', failed: 'Non riuscita', cancelled: 'Annullata' };
export const ESECUZIONE_STATO_TONES: Record<string, string> = { running: 'blue', completed: 'green', failed: 'red', cancelled: 'secondary' };
