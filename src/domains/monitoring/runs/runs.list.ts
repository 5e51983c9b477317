import { defineList } from '../../../kit/list';
import type { RunStato, RunTipo } from '../../../../workflows/monitoring-runs/monitoring-runs.contract';

/** The monitoring runs (daily batches, replays, backtests), newest first (/monitoraggio/esecuzioni, GET /api/monitoring/esecuzioni). */
export const monitoringRunsList = defineList<{ tipo: RunTipo; stato: RunStato }>({
  name: 'monitoring.runs',
  table: 'monitoring_esecuzioni',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: (db) => [
    'id', 'cod_azienda', 'tipo', 'stato', db.raw('giorno::text as giorno'), db.raw('dal::text as dal'), db.raw('al::text as al'), 'versione_id',
    'versione_hash', 'attiva_id', 'totale', 'elaborati', 'eventi', 'decisioni', 'alert_nuovi', 'alert_aggiornati', 'riepilogo', 'errore', 'workflow_id',
    'avviata_da', 'created_at', 'updated_at', 'finished_at',
  ],
  sorts: { created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }] },
  defaultSort: '-created_at',
  filters: {
    tipo: { apply: (qb, v) => qb.where('tipo', v), sample: 'replay' },
    stato: { apply: (qb, v) => qb.where('stato', v), sample: 'running' },
  },
  limit: { default: 25, max: 200 },
});
