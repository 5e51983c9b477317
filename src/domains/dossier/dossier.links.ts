import { hasRole } from '../../http/auth';
import type { RecordLinks } from '../../kit/record-links';
import { DOSSIER_GENERATORS } from './dossier.access';

/** "Genera fascicolo" on a customer's page, for who may generate one (an erased record has nothing left to print). */
export const dossierRecordLinks: RecordLinks = (record, user) => {
  if (record.kind !== 'customer' || record.stato === 'eliminato' || !hasRole(user, DOSSIER_GENERATORS)) return [];
  return [{ href: `/dossier/builder/${encodeURIComponent(record.cod_anagrafe)}`, label: 'Genera fascicolo', hint: 'Fascicolo PDF firmabile con le sezioni scelte.' }];
};
