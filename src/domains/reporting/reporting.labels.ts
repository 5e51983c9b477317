import type { ReportEsito, ReportTipo } from '../../../workflows/reporting/reporting.contract';
import type { ReportAction, ReportStatus } from '../../../workflows/reporting/reporting.machine';

export const REPORT_TIPO_LABELS: Record<ReportTipo, string> = {
  comunicazione_oggettiva: 'Comunicazione oggettiva',
  sara: 'S.AR.A. (dati aggregati)',
};

export const REPORT_STATO_LABELS: Record<ReportStatus, string> = {
  generating: 'In generazione', generated: 'Generata', approved: 'Approvata', submitted: 'Inviata', completed: 'Completata', failed: 'Generazione non riuscita',
};

export const REPORT_STATO_TONES: Record<ReportStatus, string> = {
  generating: 'azure', generated: 'blue', approved: 'green', submitted: 'purple', completed: 'green', failed: 'red',
};

export const REPORT_AZIONE_LABELS: Record<ReportAction, string> = {
  approve: 'Approva', submit: 'Registra l\'invio', 'complete-submission': 'Registra l\'esito',
};

export const REPORT_ESITO_LABELS: Record<ReportEsito | 'in_attesa', string> = {
  in_attesa: 'In attesa di esito', accettata: 'Accettata', scartata: 'Scartata',
};

export const SEGNO_LABELS: Record<string, string> = { entrata: 'Versamenti', uscita: 'Prelevamenti' };
export const RUOLO_LABELS: Record<string, string> = { cliente: 'Cliente', esecutore: 'Esecutore' };
