import { defineList } from '../../../kit/list';

/**
 * The customers of one cell of the 4×4 matrix (probability × impact), with their names: the
 * index rischio_correnti_matrice (cod_azienda, probabilita, impatto, cod_anagrafe) serves the
 * code order, rischio_correnti_cella_punteggio (migration 20261205000700) the score order.
 * Both filters are always given: a cell is the list.
 */
export const riskMatrixCellList = defineList<{ probabilita: number; impatto: number }>({
  name: 'risk.matrix_cell',
  table: 'rischio_correnti',
  from: (db) => db('rischio_correnti as c')
    .join('anagrafe as a', (j) => j.on('a.cod_azienda', 'c.cod_azienda').andOn('a.cod_anagrafe', 'c.cod_anagrafe'))
    .whereNot('a.stato', 'eliminato'),
  tenantColumn: 'c.cod_azienda',
  scopes: ['tenant'],
  columns: (db) => [
    'c.cod_anagrafe', 'a.denominazione', 'a.tipo_soggetto', 'a.paese_residenza', 'c.punteggio', 'c.classe_calcolata',
    db.raw('coalesce(c.classe_effettiva, c.classe_calcolata) as classe'), 'c.probabilita', 'c.impatto', 'c.calcolato_at', 'c.valutazione_id',
  ],
  sorts: {
    cod_anagrafe: [{ column: 'c.cod_anagrafe', type: 'text' }],
    punteggio: [{ column: 'c.punteggio', type: 'integer' }, { column: 'c.cod_anagrafe', type: 'text' }],
  },
  defaultSort: '-punteggio',
  filters: {
    probabilita: { apply: (qb, v) => qb.where('c.probabilita', v), sample: 4, always: true },
    impatto: { apply: (qb, v) => qb.where('c.impatto', v), sample: 2, always: true },
  },
  search: {
    apply: (qb, like) => qb.where((w) => w.whereILike('c.cod_anagrafe', like).orWhereILike('a.denominazione', like)),
    sample: 'ANA-0001',
  },
  limit: { default: 25, max: 200 },
});
