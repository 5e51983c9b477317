import { defineList } from '../../../kit/list';
import type { DirezioneTravelRule, StatoTravelRule } from '../verifications.vocabulary';

/**
 * The transfers list (/api/v1/travel-rule/transazioni and /admin/travel-rule): the indexes
 * travel_rule_list, travel_rule_stato and travel_rule_anagrafe (migration 20261206000400) serve it;
 * direction and wallet type are few-valued filters read along travel_rule_list.
 */
export const travelRuleList = defineList<{ stato: StatoTravelRule; direzione: DirezioneTravelRule; tipo_wallet: 'vasp' | 'self_hosted'; cod_anagrafe: string }>({
  name: 'travel-rule',
  table: 'travel_rule_transazioni',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  // The amounts as text (travel-rule.evaluate.ts, transferColumns): a token amount keeps its 18 decimals.
  columns: (db) => ['*', db.raw('importo::text as importo'), db.raw('importo_eur::text as importo_eur')],
  sorts: {
    created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }],
    cod_transazione: [{ column: 'cod_transazione', type: 'text' }, { column: 'id', type: 'uuid' }],
  },
  defaultSort: '-created_at',
  filters: {
    stato: { apply: (qb, v) => qb.where('stato', v), sample: 'held' },
    direzione: { apply: (qb, v) => qb.where('direzione', v), sample: 'in_entrata' },
    tipo_wallet: { apply: (qb, v) => qb.where('tipo_wallet', v), sample: 'self_hosted' },
    cod_anagrafe: { apply: (qb, v) => qb.where('cod_anagrafe', v), sample: 'ANA-000001' },
  },
  search: {
    apply: (qb, like) => qb.where((w) => w.whereILike('cod_transazione', like).orWhereILike('riferimento_esterno', like)
      .orWhereILike('tx_hash', like).orWhereILike('vasp_controparte', like)),
    sample: 'TRR-0001',
  },
  limit: { default: 25, max: 200 },
});
