import { hasRole } from '../../http/auth';
import type { RecordLinks } from '../../kit/record-links';
import { SOS_ACCESS } from './sos.routes';

const LABEL = 'Prepara segnalazione SOS';
const newSos = (params: Record<string, string>) => `/sos/nuova?${new URLSearchParams(params).toString()}`;

/**
 * The "prepare an SOS" link the SOS area puts on alert, case and CDD task pages. It is decided from the
 * record and the user's roles alone and reads nothing of the reports: whether one already exists
 * for the record must not show on pages that roles without SOS access read (art. 39, tipping-off).
 */
export const sosRecordLinks: RecordLinks = (record, user) => {
  // Never on a customer's page (processes.md, "SOS": never on the customer's pages).
  if (record.kind === 'customer' || !hasRole(user, SOS_ACCESS)) return [];
  if (record.kind === 'alert') {
    // Only an alert closed as suspicious may originate a report (sos.service.ts, proposeSos).
    if (record.stato !== 'closed' || record.disposizione !== 'sospetto') return [];
    return [{ href: newSos({ origine: 'alert', origine_ref: record.cod_alert }), label: LABEL, hint: 'Le operazioni e gli indicatori dell\'alert vengono proposti nella segnalazione.' }];
  }
  if (record.kind === 'cdd') {
    // An abstention (art. 42) is where the law asks to weigh a report.
    if (record.stato !== 'abstained') return [];
    return [{ href: newSos({ origine: 'cdd', origine_ref: record.id, cod_anagrafe: record.cod_anagrafe }), label: LABEL, hint: 'Il cliente della verifica viene proposto nella segnalazione.' }];
  }
  return [{
    href: newSos({ origine: 'caso', origine_ref: record.id, ...(record.cod_anagrafe ? { cod_anagrafe: record.cod_anagrafe } : {}) }),
    label: LABEL, hint: 'Il soggetto del caso viene proposto nella segnalazione.',
  }];
};
