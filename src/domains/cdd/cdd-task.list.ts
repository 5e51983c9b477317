import { defineList } from '../../kit/list';
import type { CddLivello, CddMotivo } from '../../../workflows/cdd/cdd-task.contract';
import { CDD_OPEN_STATES, type CddTaskStatus } from '../../../workflows/cdd/cdd-task.machine';

/**
 * The CDD tasks list (API and the /cdd pages). Every sort and filter has its index in
 * migration 20261204010000 (cdd_pratiche_list, _stato, _livello, _motivo, _cliente, _due,
 * _scadute, _codice_sort, _assegnatario).
 */
export const cddTasksList = defineList<{
  stato: CddTaskStatus; livello: CddLivello; motivo: CddMotivo; cod_anagrafe: string; assegnatario: string; aperte: boolean; scadute: boolean;
}>({
  name: 'cdd_tasks',
  table: 'cdd_pratiche',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: () => ['*'],
  sorts: {
    created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }],
    due_at: [{ column: 'due_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }],
    cod_pratica: [{ column: 'cod_pratica', type: 'text' }, { column: 'id', type: 'uuid' }],
  },
  defaultSort: '-created_at',
  filters: {
    stato: { apply: (qb, v) => qb.where('stato', v), sample: 'open' },
    livello: { apply: (qb, v) => qb.where('livello', v), sample: 'rafforzata' },
    motivo: { apply: (qb, v) => qb.where('motivo', v), sample: 'revisione_periodica' },
    cod_anagrafe: { apply: (qb, v) => qb.where('cod_anagrafe', v), sample: 'ANA-000001' },
    // A user id: the pages and the API turn `me` into the caller's before the list is read.
    assegnatario: { apply: (qb, v) => qb.where('assegnatario', v), sample: '00000000-0000-4000-8000-000000000001' },
    aperte: { apply: (qb, v) => (v ? qb.whereIn('stato', CDD_OPEN_STATES) : qb.whereNotIn('stato', CDD_OPEN_STATES)), sample: true },
    // Still being worked and past their due date.
    scadute: {
      apply: (qb, v) => (v
        ? qb.whereIn('stato', CDD_OPEN_STATES).whereRaw('due_at < now()')
        : qb.where((w) => w.whereNotIn('stato', CDD_OPEN_STATES).orWhereRaw('due_at >= now()'))),
      sample: true,
    },
  },
  search: {
    apply: (qb, like) => qb.where((w) => w.whereILike('cod_pratica', like).orWhereILike('cod_anagrafe', like)),
    sample: 'CDD-0000',
  },
  limit: { default: 25, max: 200 },
});
