import type { CddTaskAction, CddTaskStatus } from '../../../workflows/cdd/cdd-task.machine';

/** Italian labels for everything a person sees about CDD tasks (adeguata verifica). The API keeps the identifiers. */
export const STATO_LABELS: Record<CddTaskStatus, string> = {
  open: 'Aperta',
  in_progress: 'In lavorazione',
  pending_review: 'In revisione',
  completed: 'Completata',
  abstained: 'Astensione',
  deleted: 'Eliminata',
};

/** Counters show states in the plural: "Aperte 12", not "Aperta 12". */
export const STATO_PLURALE_LABELS: Record<CddTaskStatus, string> = {
  open: 'Aperte',
  in_progress: 'In lavorazione',
  pending_review: 'In revisione',
  completed: 'Completate',
  abstained: 'Astensioni',
  deleted: 'Eliminate',
};

export const STATO_TONES: Record<CddTaskStatus, string> = {
  open: 'blue',
  in_progress: 'cyan',
  pending_review: 'yellow',
  completed: 'green',
  abstained: 'red',
  deleted: 'secondary',
};

export const AZIONE_LABELS: Record<CddTaskAction, string> = {
  start: 'Avvia la verifica',
  'add-note': 'Aggiungi una nota',
  review: 'Invia in revisione',
  'send-back': 'Rimanda all\'operatore',
  complete: 'Completa la verifica',
  abstain: 'Astensione',
  delete: 'Elimina',
};

export const LIVELLO_LABELS: Record<string, string> = {
  semplificata: 'Semplificata',
  ordinaria: 'Ordinaria',
  rafforzata: 'Rafforzata',
};

export const LIVELLO_TONES: Record<string, string> = { semplificata: 'green', ordinaria: 'blue', rafforzata: 'red' };

/** Why a task was started. */
export const MOTIVO_LABELS: Record<string, string> = {
  manuale: 'Avvio manuale',
  onboarding: 'Onboarding',
  revisione_periodica: 'Revisione periodica',
  nuovo_match_screening: 'Nuova corrispondenza di screening',
  cambio_classe_rischio: 'Cambio della classe di rischio',
  documento_in_scadenza: 'Documento in scadenza',
};

export const CLASSE_RISCHIO_LABELS: Record<string, string> = {
  basso: 'Basso', medio: 'Medio', medio_alto: 'Medio-alto', alto: 'Alto',
};

export const CLASSE_RISCHIO_TONES: Record<string, string> = { basso: 'green', medio: 'blue', medio_alto: 'orange', alto: 'red' };

export const EVIDENZA_TIPO_LABELS: Record<string, string> = {
  documento: 'Documento',
  verifica_fonte: 'Verifica su fonte affidabile',
  nota: 'Nota',
  questionario: 'Questionario',
  altro: 'Altro',
};

export const QUESTIONARIO_STATO_LABELS: Record<string, string> = { bozza: 'Bozza', completato: 'Completato' };
export const QUESTIONARIO_STATO_TONES: Record<string, string> = { bozza: 'yellow', completato: 'green' };

/** The periodic reviews (cdd_reviews.stato). */
export const REVISIONE_STATO_LABELS: Record<string, string> = { programmata: 'Programmata', scaduta: 'Scaduta', annullata: 'Annullata' };
export const REVISIONE_STATO_TONES: Record<string, string> = { programmata: 'blue', scaduta: 'red', annullata: 'secondary' };

export const TIPO_SOGGETTO_LABELS: Record<string, string> = {
  persona_fisica: 'Persona fisica', ditta_individuale: 'Ditta individuale', societa: 'Società',
};

/** Messages for refused page actions (the API answers with codes). */
export const REJECTION_MESSAGES: Record<string, string> = {
  INVALID_TRANSITION: 'Questa azione non è consentita nello stato attuale della verifica.',
  FOUR_EYES_REQUIRED: 'La verifica deve essere completata da un utente diverso da chi l\'ha inviata in revisione (principio dei quattro occhi).',
  FORBIDDEN: 'Non hai i permessi per questa azione.',
  MISSING_FIELDS: 'Compila i campi obbligatori.',
  QUESTIONNAIRE_INCOMPLETE: 'Il questionario deve essere completato prima di completare la verifica.',
  EDD_REQUIRED: 'Una verifica rafforzata si completa solo dopo l\'approvazione della pratica di adeguata verifica rafforzata.',
};

/** The customer's screening matches, as the screening area names their states. */
export const MATCH_STATO_LABELS: Record<string, string> = {
  open: 'Aperta', assigned: 'Assegnata', true_match: 'Corrispondenza confermata', false_positive: 'Falso positivo',
};
export const MATCH_STATO_TONES: Record<string, string> = { open: 'blue', assigned: 'yellow', true_match: 'red', false_positive: 'green' };
