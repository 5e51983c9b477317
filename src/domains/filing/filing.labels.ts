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

/** What each finding code means, in Italian (the library's own messages are English, for API clients and logs). */
export const FILING_FINDING_LABELS: Record<string, string> = {
  GOAML_REPORT_CODE_UNKNOWN: 'Codice del report non previsto dalla giurisdizione',
  GOAML_FIELD_REQUIRED: 'Campo obbligatorio per la giurisdizione',
  GOAML_UNKNOWN_FIELD: 'Campo non previsto dallo schema goAML',
  GOAML_NO_TRANSACTION_OR_ACTIVITY: 'Il report deve contenere transazioni o un\'attività',
  GOAML_TRANSACTION_AND_ACTIVITY: 'Il report contiene transazioni o un\'attività, non entrambe',
  GOAML_KIND_MISMATCH: 'Il codice del report richiede l\'altro tipo di contenuto (transazioni o attività)',
  GOAML_PARTIES_MIXED: 'Una transazione è bilaterale (da/a) o multiparte, non entrambe',
  GOAML_BI_PARTY_INCOMPLETE: 'Una transazione bilaterale ha esattamente un ordinante e un beneficiario',
  GOAML_MULTI_PARTY_TOO_FEW: 'Una transazione multiparte indica almeno due parti',
  GOAML_ACTIVITY_NO_PARTIES: 'L\'attività indica almeno un soggetto',
  GOAML_NO_INDICATORS: 'Indica almeno un indicatore',
  GOAML_AMOUNT_NOT_POSITIVE: 'L\'importo deve essere un numero positivo',
  GOAML_CODE_UNKNOWN: 'Codice non presente nelle tabelle della giurisdizione',
  GOAML_SCHEMA_INVALID: 'Non conforme allo schema XSD',
  FILING_NOT_CLASSIFIED: 'Classifica prima la segnalazione',
};
