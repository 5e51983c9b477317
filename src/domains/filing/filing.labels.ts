import type { FilingAction, FilingStatus } from '../../../workflows/filing/filing.machine';
import type { FilingTipo } from '../../../workflows/filing/filing.deadlines';

export const FILING_STATO_LABELS: Record<FilingStatus, string> = {
  draft: 'Bozza', classified: 'Classificata', validated: 'Validata', ready: 'Pronta', pending_approval: 'In approvazione',
  approved: 'Approvata', signing: 'In firma', signed: 'Firmata', packaged: 'Pacchetto generato', submitted: 'Inviata',
  acknowledged: 'Accettata', returned: 'Respinta dalla UIF/FIU', archived: 'Archiviata',
};

export const FILING_STATO_TONES: Record<FilingStatus, string> = {
  draft: 'secondary', classified: 'blue', validated: 'blue', ready: 'cyan', pending_approval: 'orange', approved: 'green',
  signing: 'orange', signed: 'green', packaged: 'teal', submitted: 'purple', acknowledged: 'green', returned: 'red', archived: 'secondary',
};

export const FILING_AZIONE_LABELS: Record<FilingAction, string> = {
  edit: 'Modifica', classify: 'Classifica', validate: 'Valida', 'mark-ready': 'Segna come pronta',
  'submit-for-approval': 'Invia in approvazione', approve: 'Approva', reject: 'Respingi', sign: 'Firma',
  'complete-signing': 'Completa la firma', 'render-package': 'Genera il pacchetto', 'record-submission': 'Registra l\'invio',
  'import-return': 'Importa l\'esito', 'follow-up': 'Crea seguito', archive: 'Archivia',
};

export const FILING_TIPO_LABELS: Record<FilingTipo, string> = {
  str: 'Segnalazione di operazione sospetta (STR)',
  comunicazione_oggettiva: 'Comunicazione oggettiva',
  sara: 'S.AR.A. (segnalazione aggregata)',
};

/** The timeline line of a transition (Italian: it is shown on the pages). */
export function filingTransitionText(action: FilingAction, to: FilingStatus, reason?: string): string {
  const base = `${FILING_AZIONE_LABELS[action]}: ${FILING_STATO_LABELS[to]}`;
  return reason ? `${base}. Motivo: ${reason}` : base;
}
