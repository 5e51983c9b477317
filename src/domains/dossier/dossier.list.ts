import type { DossierStatus } from '../../../workflows/dossier/dossier.machine';
import { defineList } from '../../kit/list';
import { DOSSIER_COLUMNS } from './dossier.columns';

/** The customer dossiers (GET /api/dossier, /dossier): newest first; never the PDF's bytes. */
export const dossiersList = defineList<{ stato: DossierStatus; cod_anagrafe: string }>({
  name: 'dossiers',
  table: 'dossiers',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: () => DOSSIER_COLUMNS,
  sorts: {
    created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }],
  },
  defaultSort: '-created_at',
  filters: {
    stato: { apply: (qb, v) => qb.where('stato', v), sample: 'signed' },
    cod_anagrafe: { apply: (qb, v) => qb.where('cod_anagrafe', v), sample: 'DOSSEED-00001' },
  },
  search: { apply: (qb, like) => qb.where((w) => w.whereILike('denominazione', like).orWhereILike('cod_anagrafe', like)), sample: 'Rossi' },
  limit: { default: 25, max: 200 },
});
