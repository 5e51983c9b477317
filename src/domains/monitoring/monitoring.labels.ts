import type { AlertAction, AlertStatus, Disposizione, Origine } from '../../../workflows/monitoring-alert/monitoring-alert.machine';
import { TIPOLOGIA_LABELS } from './monitoring.typologies';

/** Italian labels of the monitoring area (docs/ui.md, "Words"); the API keeps the identifiers. */
export const STATO_LABELS: Record<AlertStatus, string> = {
  new: 'Nuovo', assigned: 'Assegnato', closing: 'In chiusura', escalated: 'Escalato in un caso', closed: 'Chiuso',
};
export const STATO_PLURALE_LABELS: Record<AlertStatus, string> = {
  new: 'Nuovi', assigned: 'Assegnati', closing: 'In chiusura', escalated: 'Escalati', closed: 'Chiusi',
};
export const STATO_TONES: Record<AlertStatus, string> = {
  new: 'blue', assigned: 'yellow', closing: 'azure', escalated: 'red', closed: 'green',
};
export const AZIONE_LABELS: Record<AlertAction, string> = {
  assign: 'Assegna', escalate: 'Escala in un caso', close: 'Chiudi', 'propose-closure': 'Proponi la chiusura',
  'confirm-closure': 'Conferma la chiusura', reopen: 'Respingi la chiusura',
};
export const DISPOSIZIONE_LABELS: Record<Disposizione, string> = {
  falso_positivo: 'Falso positivo', giustificato: 'Giustificato', sospetto: 'Sospetto',
};
export const DISPOSIZIONE_TONES: Record<Disposizione, string> = { falso_positivo: 'green', giustificato: 'azure', sospetto: 'red' };
export const ORIGINE_LABELS: Record<Origine, string> = {
  tempo_reale: 'Tempo reale', giornaliero: 'Elaborazione giornaliera', replay: 'Riesecuzione dello storico', manuale: 'Inserito a mano', kyt: 'KYT (cripto-attività)',
};

export const STATO_VERSIONE_LABELS: Record<string, string> = { bozza: 'Bozza', attiva: 'In vigore', ritirata: 'Ritirata' };
export const STATO_VERSIONE_TONES: Record<string, string> = { bozza: 'yellow', attiva: 'green', ritirata: 'secondary' };
export const AMBITO_LABELS: Record<string, string> = { evento: 'Su ogni operazione', giornaliero: 'A fine giornata' };
export const LIVELLO_LABELS: Record<string, string> = { cliente: 'Cliente', rapporto: 'Rapporto' };
export const ESITO_REGOLA_LABELS: Record<string, string> = { alert: 'Genera un alert', osserva: 'Solo osservazione (nessun alert)' };
export const SEGNO_LABELS: Record<string, string> = { entrata: 'Entrata', uscita: 'Uscita' };

export { TIPOLOGIA_LABELS };

/** A refused action explained on the alert's page (the API answers the same refusals as problem details). */
export const REJECTION_MESSAGES: Record<string, string> = {
  INVALID_TRANSITION: 'Questa azione non è consentita nello stato attuale dell\'alert.',
  FOUR_EYES_REQUIRED: 'La chiusura deve essere confermata da una persona diversa da chi l\'ha proposta (principio dei quattro occhi).',
  FORBIDDEN: 'Il tuo ruolo non consente questa azione.',
  MISSING_FIELDS: 'Compila i campi obbligatori.',
  DISPOSIZIONE_DIFFERENTE: 'La conferma deve riportare la stessa disposizione proposta: per cambiarla respingi la chiusura.',
  ALERT_NOT_DELETABLE: 'Si possono eliminare solo gli alert nuovi o assegnati.',
};
