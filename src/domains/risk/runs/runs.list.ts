import { defineList } from '../../../kit/list';
import type { RiskRunStato, RiskRunTipo } from '../../../../workflows/risk/risk-portfolio.contract';
import type { Classe } from '../risk.types';

/** The tenant's portfolio runs, newest first: index rischio_esecuzioni_list serves it. */
export const riskRunsList = defineList<{ tipo: RiskRunTipo; stato: RiskRunStato }>({
  name: 'risk_runs',
  table: 'rischio_esecuzioni',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: () => ['*'],
  sorts: { started_at: [{ column: 'started_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }] },
  defaultSort: '-started_at',
  filters: {
    // A tenant has few runs; the tenant's index bounds the read.
    tipo: { apply: (qb, v) => qb.where('tipo', v), sample: 'simulazione' },
    stato: { apply: (qb, v) => qb.where('stato', v), sample: 'completed' },
  },
  limit: { default: 10, max: 100 },
});

/** `classe_attuale=nessuna`: customers with no class in force yet. */
export type ClasseAttualeFiltro = Classe | 'nessuna';

/**
 * One run's results by customer code (the run is always given): the primary key (esecuzione_id,
 * cod_anagrafe) serves it, rischio_esecuzioni_risultati_cambi the changed customers. The
 * customer's name comes from anagrafe by its key (a nested loop on the page's rows).
 */
export const riskRunResultsList = defineList<{ esecuzione_id: string; cambia: boolean; classe: Classe; classe_attuale: ClasseAttualeFiltro }>({
  name: 'risk_run_results',
  table: 'rischio_esecuzioni_risultati',
  from: (db) => db('rischio_esecuzioni_risultati as r').join('anagrafe as a', (j) => j.on('a.cod_azienda', 'r.cod_azienda').andOn('a.cod_anagrafe', 'r.cod_anagrafe')),
  tenantColumn: 'r.cod_azienda',
  scopes: ['tenant'],
  columns: () => ['r.cod_anagrafe', 'a.denominazione', 'r.punteggio', 'r.classe', 'r.punteggio_attuale', 'r.classe_attuale', 'r.cambia', 'r.differenze'],
  sorts: { cod_anagrafe: [{ column: 'r.cod_anagrafe', type: 'text' }] },
  defaultSort: 'cod_anagrafe',
  filters: {
    esecuzione_id: { apply: (qb, v) => qb.where('r.esecuzione_id', v), sample: '00000000-0000-4000-8000-00000000e5e1', always: true },
    cambia: { apply: (qb, v) => qb.where('r.cambia', v), sample: true },
    classe: { apply: (qb, v) => qb.where('r.classe', v), sample: 'alto' },
    classe_attuale: { apply: (qb, v) => (v === 'nessuna' ? qb.whereNull('r.classe_attuale') : qb.where('r.classe_attuale', v)), sample: 'medio' },
  },
  limit: { default: 25, max: 200 },
});
