import type { EddMotivo, EddStepTipo } from '../../../workflows/edd/edd.contract';
import type { EddAction, EddStatus } from '../../../workflows/edd/edd.machine';

/** Italian labels for everything a person sees about EDD cases. */
export const STATO_LABELS: Record<EddStatus, string> = {
  open: 'Aperta',
  pending_supervisor: 'In attesa di approvazione',
  approved: 'Approvata',
  closed: 'Chiusa',
};

export const STATO_TONES: Record<EddStatus, string> = {
  open: 'blue',
  pending_supervisor: 'yellow',
  approved: 'green',
  closed: 'secondary',
};

export const AZIONE_LABELS: Record<EddAction, string> = {
  'aggiungi-step': 'Aggiungi misura',
  'completa-step': 'Completa misura',
  approva: 'Invia in approvazione',
  'approva-supervisore': 'Approva (supervisore)',
  respingi: 'Respingi',
  chiudi: 'Chiudi',
};

export const MOTIVO_LABELS: Record<EddMotivo, string> = {
  pep: 'Persona politicamente esposta (PEP)',
  paese_alto_rischio: 'Paese terzo ad alto rischio',
  classe_rischio_alta: 'Classe di rischio alta',
  operativita_anomala: 'Operatività anomala o inusuale',
  altro: 'Altro motivo',
};

export const STEP_TIPO_LABELS: Record<EddStepTipo, string> = {
  informazioni_cliente: 'Informazioni aggiuntive sul cliente',
  informazioni_titolari: 'Informazioni aggiuntive sui titolari effettivi',
  scopo_natura_rapporto: 'Scopo e natura del rapporto',
  origine_fondi: 'Origine dei fondi',
  origine_patrimonio: 'Origine del patrimonio',
  approvazione_alta_direzione: 'Autorizzazione dell\'alta direzione',
  monitoraggio_rafforzato: 'Controllo costante rafforzato',
  altro: 'Altra misura',
};

export const STEP_STATO_LABELS: Record<string, string> = { aperto: 'Da completare', completato: 'Completata' };
export const STEP_STATO_TONES: Record<string, string> = { aperto: 'yellow', completato: 'green' };

/** Messages for refused page actions (the API answers with codes). */
export const REJECTION_MESSAGES: Record<string, string> = {
  INVALID_TRANSITION: 'Questa azione non è consentita nello stato attuale della verifica rafforzata.',
  FOUR_EYES_REQUIRED: 'L\'approvazione deve essere data da un responsabile antiriciclaggio diverso da chi ha inviato la verifica (principio dei quattro occhi).',
  FORBIDDEN: 'Non hai i permessi per questa azione.',
  MISSING_FIELDS: 'Compila i campi obbligatori.',
  STEPS_OPEN: 'Non è possibile inviare in approvazione: ci sono misure ancora da completare.',
  NO_STEPS: 'Non è possibile inviare in approvazione una verifica senza misure.',
  STEP_COMPLETED: 'Questa misura è già stata completata.',
  STEP_EXISTS: 'Questa misura è già stata aggiunta.',
};

/** The customer's risk class as the EDD pages show it. */
export const CLASSE_RISCHIO_LABELS: Record<string, string> = { basso: 'Basso', medio: 'Medio', medio_alto: 'Medio-alto', alto: 'Alto' };
