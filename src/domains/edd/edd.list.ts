import { defineList } from '../../kit/list';
import type { EddMotivo } from '../../../workflows/edd/edd.contract';
import type { EddStatus } from '../../../workflows/edd/edd.machine';

/** The EDD cases list: indexes edd_casi_list, edd_casi_stato, edd_casi_anagrafe and the unique code serve it. */
export const eddList = defineList<{ stato: EddStatus; motivo: EddMotivo; cod_anagrafe: string; aperti: boolean; approvabile_da: string }>({
  name: 'edd',
  table: 'edd_casi',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: () => ['*'],
  sorts: {
    created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }],
    cod_edd: [{ column: 'cod_edd', type: 'text' }, { column: 'id', type: 'uuid' }],
  },
  defaultSort: '-created_at',
  filters: {
    stato: { apply: (qb, v) => qb.where('stato', v), sample: 'pending_supervisor' },
    motivo: { apply: (qb, v) => qb.whereRaw('motivi @> ?::jsonb', [JSON.stringify([v])]), sample: 'pep' },
    cod_anagrafe: { apply: (qb, v) => qb.where('cod_anagrafe', v), sample: 'ANA-000001' },
    // Still being worked: everything but closed cases.
    aperti: { apply: (qb, v) => (v ? qb.whereNot('stato', 'closed') : qb.where('stato', 'closed')), sample: true },
    // A user id: waiting for a supervisor and not submitted by them (what they may approve). `da_approvare=true` is the caller.
    approvabile_da: { apply: (qb, v) => qb.where('stato', 'pending_supervisor').whereNot('submitted_by', v), sample: '00000000-0000-4000-8000-000000000001' },
  },
  search: {
    apply: (qb, like) => qb.where((w) => w.whereILike('cod_edd', like).orWhereILike('cod_anagrafe', like).orWhereILike('descrizione', like)),
    sample: 'EDD-0001',
  },
  limit: { default: 25, max: 200 },
});
