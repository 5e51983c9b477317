import type { CaseAction, CaseStatus } from '../../../workflows/case/case.machine';

/** Italian labels for everything a person sees about cases. */
export const STATO_LABELS: Record<CaseStatus, string> = {
  open: 'Aperto',
  escalated: 'Escalato',
  closing: 'In chiusura',
  closed: 'Chiuso',
};

/** Counters show states in the plural: "Aperti 113", not "Aperto 113". */
export const STATO_PLURALE_LABELS: Record<CaseStatus, string> = {
  open: 'Aperti',
  escalated: 'Escalati',
  closing: 'In chiusura',
  closed: 'Chiusi',
};

export const STATO_TONES: Record<CaseStatus, string> = {
  open: 'blue',
  escalated: 'orange',
  closing: 'yellow',
  closed: 'green',
};

export const AZIONE_LABELS: Record<CaseAction, string> = {
  'add-event': 'Aggiungi evento',
  escalate: 'Escala',
  close: 'Chiedi la chiusura',
  'complete-closure': 'Conferma la chiusura',
  reopen: 'Riapri',
};

export const TIPO_LABELS: Record<string, string> = {
  indagine: 'Indagine',
  alert_monitoraggio: 'Alert di monitoraggio',
  screening: 'Screening',
  segnalazione_interna: 'Segnalazione interna',
  altro: 'Altro',
};

export const PRIORITA_LABELS: Record<string, string> = {
  bassa: 'Bassa',
  media: 'Media',
  alta: 'Alta',
  critica: 'Critica',
};

export const PRIORITA_TONES: Record<string, string> = { bassa: 'secondary', media: 'blue', alta: 'orange', critica: 'red' };

export const ESITO_LABELS: Record<string, string> = {
  nessuna_anomalia: 'Nessuna anomalia',
  sos_inviata: 'SOS inviata',
  rimediazione: 'Rimediazione',
  archiviato: 'Archiviato',
};

export const EVENTO_LABELS: Record<string, string> = {
  nota: 'Nota',
  documento: 'Documento',
  contatto: 'Contatto',
  altro: 'Altro',
  apertura: 'Apertura',
  transizione: 'Cambio di stato',
  scadenza: 'Scadenza SLA',
};

/** Titles of the timeline line of an event a person added to the case. */
export const EVENTO_AGGIUNTO_LABELS: Record<string, string> = {
  nota: 'Nota aggiunta', documento: 'Documento aggiunto', contatto: 'Contatto registrato', altro: 'Evento aggiunto',
};

/** The text of the case event a transition writes to the timeline. */
export function transitionText(action: CaseAction, to: CaseStatus, reason?: string, outcome?: string): string {
  const base = `${AZIONE_LABELS[action]}: stato ${STATO_LABELS[to]}`;
  const parts = [base];
  if (outcome) parts.push(`esito ${ESITO_LABELS[outcome] ?? outcome}`);
  if (reason) parts.push(`motivazione: ${reason}`);
  return parts.join(' — ');
}

/** Messages for rejected page actions (the API answers with codes). */
export const REJECTION_MESSAGES: Record<string, string> = {
  INVALID_TRANSITION: 'Questa azione non è consentita nello stato attuale del caso.',
  FOUR_EYES_REQUIRED: 'La chiusura deve essere confermata da un utente diverso da chi l\'ha richiesta (principio dei quattro occhi).',
  FORBIDDEN: 'Non hai i permessi per questa azione.',
  MISSING_FIELDS: 'Compila i campi obbligatori.',
};
