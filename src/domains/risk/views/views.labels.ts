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

export const STATO_VALUTAZIONE_LABELS: Record<string, string> = {
  draft: 'In calcolo', completed: 'Calcolata', override_pending: 'Modifica da confermare', overridden: 'Modifica confermata', released: 'Rilasciata', archived: 'Archiviata',
};
export const STATO_VALUTAZIONE_TONES: Record<string, string> = {
  draft: 'secondary', completed: 'blue', override_pending: 'yellow', overridden: 'purple', released: 'green', archived: 'secondary',
};
export const MOTIVO_VALUTAZIONE_LABELS: Record<string, string> = {
  manuale: 'Richiesta manuale', onboarding: 'Onboarding', evento_screening: 'Nuova corrispondenza di screening', evento_anagrafe: 'Dati del cliente modificati',
  evento_cdd: 'Adeguata verifica completata', evento_monitoraggio: 'Alert di monitoraggio', portafoglio: 'Ricalcolo del portafoglio', scadenza_override: 'Scadenza della modifica manuale',
};
export const FAMIGLIA_LABELS: Record<string, string> = { cliente: 'Cliente', geografia: 'Area geografica', prodotto: 'Prodotti e operatività', canale: 'Canale' };
export const ESECUZIONE_TIPO_LABELS: Record<string, string> = { ricalcolo: 'Ricalcolo del portafoglio', simulazione: 'Simulazione (prova a secco)' };
export const ESECUZIONE_STATO_LABELS: Record<string, string> = { running: 'In corso', completed: 'Completata', failed: 'Non riuscita', cancelled: 'Annullata' };
export const ESECUZIONE_STATO_TONES: Record<string, string> = { running: 'blue', completed: 'green', failed: 'red', cancelled: 'secondary' };
