import type { RiskClass, RiskMotivo } from '../../../../workflows/risk/risk-assessment.contract';
import type { RiskAssessmentAction, RiskAssessmentStatus } from '../../../../workflows/risk/risk-assessment.machine';

/** Italian labels for everything a person sees about risk assessments. */
export const VALUTAZIONE_STATO_LABELS: Record<RiskAssessmentStatus, string> = {
  draft: 'Bozza',
  completed: 'Calcolata',
  override_pending: 'Modifica in attesa di conferma',
  overridden: 'Modifica confermata',
  released: 'Rilasciata (in vigore)',
  archived: 'Archiviata',
};

export const VALUTAZIONE_STATO_TONES: Record<RiskAssessmentStatus, string> = {
  draft: 'secondary',
  completed: 'blue',
  override_pending: 'yellow',
  overridden: 'purple',
  released: 'green',
  archived: 'secondary',
};

export const VALUTAZIONE_AZIONE_LABELS: Record<RiskAssessmentAction, string> = {
  calculate: 'Calcola',
  override: 'Modifica la classe',
  'complete-override': 'Conferma la modifica (quattro occhi)',
  release: 'Rilascia',
  archive: 'Archivia',
};

export const VALUTAZIONE_MOTIVO_LABELS: Record<RiskMotivo, string> = {
  manuale: 'Calcolo a richiesta',
  onboarding: 'Onboarding',
  evento_screening: 'Nuova corrispondenza di screening',
  evento_anagrafe: 'Dati del cliente modificati',
  evento_cdd: 'Adeguata verifica completata',
  evento_monitoraggio: 'Alert di monitoraggio',
  portafoglio: 'Ricalcolo del portafoglio',
  scadenza_override: 'Scadenza della modifica manuale',
};

export const CLASSE_LABELS: Record<RiskClass, string> = { basso: 'Basso', medio: 'Medio', medio_alto: 'Medio-alto', alto: 'Alto' };

export const REJECTION_MESSAGES = {
  FOUR_EYES_REQUIRED: 'La modifica della classe deve essere confermata da un responsabile antiriciclaggio diverso da chi l\'ha proposta',
  FORBIDDEN: 'Il tuo ruolo non consente questa azione sulla valutazione del rischio',
} as const;
