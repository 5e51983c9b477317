import { defineList } from '../../../kit/list';
import type { Tipologia } from '../monitoring.typologies';

/**
 * The rules of a tenant with their version in force and their draft: one row per rule, the two
 * versions joined through the partial unique indexes (at most one of each per rule). No free-text
 * search: a tenant has tens of rules, read by code, typology and state; PostgreSQL cannot estimate
 * an `ilike` on them and would read the table for it.
 */
export const monitoringRulesList = defineList<{ tipologia: Tipologia; attiva: boolean; bozza: boolean }>({
  name: 'monitoring.rules',
  table: 'monitoring_regole',
  from: (db) => db('monitoring_regole as r')
    .leftJoin('monitoring_regole_versioni as a', (j) => { j.on('a.regola_id', 'r.id').andOnVal('a.stato', 'attiva'); })
    .leftJoin('monitoring_regole_versioni as b', (j) => { j.on('b.regola_id', 'r.id').andOnVal('b.stato', 'bozza'); }),
  tenantColumn: 'r.cod_azienda',
  scopes: ['tenant'],
  columns: () => [
    'r.id', 'r.cod_azienda', 'r.cod_regola', 'r.nome', 'r.tipologia', 'r.created_by', 'r.created_at', 'r.updated_at',
    'a.id as attiva_id', 'a.versione as attiva_versione', 'a.punteggio as attiva_punteggio', 'a.ambito as attiva_ambito', 'a.activated_at as attiva_dal',
    'b.id as bozza_id', 'b.versione as bozza_versione', 'b.updated_at as bozza_modificata',
  ],
  sorts: {
    // A code is unique in its tenant: the unique constraint's index (cod_azienda, cod_regola) serves the sort.
    cod_regola: [{ column: 'r.cod_regola', type: 'text' }],
    created_at: [{ column: 'r.created_at', type: 'timestamp' }, { column: 'r.id', type: 'uuid' }],
  },
  defaultSort: 'cod_regola',
  filters: {
    tipologia: { apply: (qb, v) => qb.where('r.tipologia', v), sample: 'fan_in' },
    attiva: { apply: (qb, v) => (v ? qb.whereNotNull('a.id') : qb.whereNull('a.id')), sample: true },
    bozza: { apply: (qb, v) => (v ? qb.whereNotNull('b.id') : qb.whereNull('b.id')), sample: true },
  },
  limit: { default: 50, max: 200 },
});
