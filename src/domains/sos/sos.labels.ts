import type { SosAction, SosStatus } from '../../../workflows/sos/sos.machine';

/** Italian labels for everything a person sees about suspicious-transaction reports. */
export const SOS_STATO_LABELS: Record<SosStatus, string> = {
  draft: 'Bozza',
  submitted: 'Inviata al delegato',
  under_evaluation: 'In valutazione',
  archived: 'Archiviata',
  to_transmit: 'Da trasmettere',
  transmitted: 'Trasmessa alla UIF',
  closed: 'Chiusa',
};

export const SOS_STATO_TONES: Record<SosStatus, string> = {
  draft: 'secondary', submitted: 'blue', under_evaluation: 'yellow', archived: 'secondary', to_transmit: 'orange', transmitted: 'green', closed: 'green',
};

export const SOS_AZIONE_LABELS: Record<SosAction, string> = {
  submit: 'Invia al delegato SOS',
  evaluate: 'Avvia la valutazione',
  archive: 'Archivia',
  to_transmit: 'Avvia la trasmissione',
  'complete-transmission': 'Registra la trasmissione',
  close: 'Chiudi',
};

export const SOS_ORIGINE_LABELS: Record<string, string> = {
  alert: 'Alert di monitoraggio', caso: 'Caso', cdd: 'Astensione in adeguata verifica', manuale: 'Inserimento manuale',
};
export const SOS_TIPO_LABELS: Record<string, string> = { originale: 'Originale', sostitutiva: 'Sostitutiva' };
export const SOS_RUOLO_LABELS: Record<string, string> = {
  cliente: 'Cliente', esecutore: 'Esecutore', controparte: 'Controparte', titolare_effettivo: 'Titolare effettivo', altro: 'Altro',
};
export const SOS_DIREZIONE_LABELS: Record<string, string> = { inviata: 'Inviata alla UIF', ricevuta: 'Ricevuta dalla UIF' };

/** The timeline line of one transition. */
export function SOS_ACTION_TEXT(action: SosAction, reason?: string, protocollo?: string): string {
  const base = SOS_AZIONE_LABELS[action];
  if (action === 'archive' && reason) return `${base}: ${reason}`;
  if (action === 'complete-transmission' && protocollo) return `${base} (protocollo UIF ${protocollo})`;
  return base;
}
