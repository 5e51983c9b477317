import { defineList } from '../../../kit/list';
import type { OrigineVerifica, StatoVerifica, TipoVerifica } from '../verifications.vocabulary';

/**
 * The verifications list (GET /api/v1/kyc|kyb/verifiche and the console's /admin/kyc, /admin/kyb):
 * always one kind (the path names it), newest first; the indexes verifiche_list (tenant, tipo,
 * created_at desc, id) and verifiche_stato (tenant, tipo, stato, created_at desc, id) serve it,
 * verifiche_anagrafe a customer's verifications.
 */
export const verificationsList = defineList<{ tipo: TipoVerifica; stato: StatoVerifica; origine: OrigineVerifica; cod_anagrafe: string }>({
  name: 'verifiche',
  table: 'verifiche',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: () => ['*'],
  sorts: {
    created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }],
  },
  defaultSort: '-created_at',
  filters: {
    tipo: { apply: (qb, v) => qb.where('tipo', v), sample: 'kyb', always: true },
    stato: { apply: (qb, v) => qb.where('stato', v), sample: 'in_progress' },
    origine: { apply: (qb, v) => qb.where('origine', v), sample: 'onboarding' },
    cod_anagrafe: { apply: (qb, v) => qb.where('cod_anagrafe', v), sample: 'VERANA-000001' },
  },
  search: {
    apply: (qb, like) => qb.where((w) => w.whereILike('cod_verifica', like).orWhereILike('cod_anagrafe', like)),
    sample: 'KYB-0001',
  },
  limit: { default: 25, max: 200 },
});
