import { SEGNO_LABELS } from '../monitoring.labels';

/** Italian labels of the evaluation paths (docs/ui.md, "Words"); the API keeps the identifiers. */

export const ESITO_DECISIONE_LABELS: Record<string, string> = { nessuna_anomalia: 'Nessuna anomalia', alert: 'Alert', blocco: 'Blocco' };
export const ESITO_DECISIONE_TONES: Record<string, string> = { nessuna_anomalia: 'green', alert: 'red', blocco: 'red' };
export const ORIGINE_DECISIONE_LABELS: Record<string, string> = { tempo_reale: 'Tempo reale', giornaliero: 'Elaborazione giornaliera' };
export const TIPO_DECISIONE_LABELS: Record<string, string> = { evento: 'Su un\'operazione', giornaliera: 'Chiusura della giornata' };
export const FONTE_EVENTO_LABELS: Record<string, string> = { movimento: 'Movimento', kyt: 'Evento KYT' };
export const ESITO_REGOLA_DECISA_LABELS: Record<string, string> = { alert: 'Alert', blocco: 'Blocco', osserva: 'Solo osservazione' };
export const ESITO_ALERT_DECISIONE_LABELS: Record<string, string> = { nuovo: 'Nuovo alert', aggiornato: 'Aggiunto a un alert aperto', gia_registrato: 'Già registrato' };

export const TIPO_RUN_LABELS: Record<string, string> = { giornaliero: 'Elaborazione giornaliera', replay: 'Riesecuzione dello storico', backtest: 'Backtest di una bozza' };
export const STATO_RUN_LABELS: Record<string, string> = { running: 'In corso', completed: 'Completata', failed: 'Non riuscita', cancelled: 'Annullata' };
export const STATO_RUN_TONES: Record<string, string> = { running: 'blue', completed: 'green', failed: 'red', cancelled: 'secondary' };

export const TIPO_LISTA_LABELS: Record<string, string> = { paesi: 'Paesi', indirizzi_crypto: 'Indirizzi cripto', controparti: 'Controparti' };
export const ORIGINE_LISTA_LABELS: Record<string, string> = { riferimento: 'Riferimento', tenant: 'Interna' };
export const ORIGINE_LISTA_TONES: Record<string, string> = { riferimento: 'azure', tenant: 'purple' };

export const STATO_RILASCIO_LABELS: Record<string, string> = {
  non_richiesta: 'Non richiesta', in_attesa: 'In attesa di approvazione', attivata: 'Approvata e in vigore', respinta: 'Respinta',
};
export const STATO_RILASCIO_TONES: Record<string, string> = { non_richiesta: 'secondary', in_attesa: 'yellow', attivata: 'green', respinta: 'red' };

export const DIREZIONE_KYT_LABELS: Record<string, string> = { entrata: 'In entrata (il cliente riceve)', uscita: 'In uscita (il cliente invia)' };
export const RISOLTO_DA_LABELS: Record<string, string> = {
  wallet: 'Wallet del cliente (onboarding)', travel_rule: 'Trasferimento travel rule del cliente', cod_anagrafe: 'Codice cliente indicato', codice_esterno: 'Codice esterno indicato',
};

/** What the decision trace (views/monitoring/_decision-trace.njk) reads from `labels`. */
export const TRACE_LABELS = {
  esitoDecisione: ESITO_DECISIONE_LABELS, esitoDecisioneTone: ESITO_DECISIONE_TONES, tipoDecisione: TIPO_DECISIONE_LABELS, origineDecisione: ORIGINE_DECISIONE_LABELS,
  esitoRegola: ESITO_REGOLA_DECISA_LABELS, esitoAlert: ESITO_ALERT_DECISIONE_LABELS, direzione: DIREZIONE_KYT_LABELS, segno: SEGNO_LABELS, fonte: FONTE_EVENTO_LABELS,
};
