import { defineList } from '../../../kit/list';
import type { AlertStatus } from '../../../../workflows/monitoring-alert/monitoring-alert.machine';

/** A day (YYYY-MM-DD) at midnight in Rome: a constant the index range reads. */
const romeDay = (offset: 0 | 1) => `((?::date + ${offset})::timestamp at time zone 'Europe/Rome')`;

/** KYT events (GET /api/kyt/events), newest first; by customer and by chain on their own indexes. */
export const kytEventsList = defineList<{ cod_anagrafe: string; chain: string; dal: string; al: string }>({
  name: 'monitoring.kyt-events',
  table: 'kyt_eventi',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: (db) => [
    'id', 'cod_evento', 'cod_azienda', 'chain', 'hash', 'direzione', 'indirizzo_da', 'indirizzo_a', 'asset', db.raw('importo::text as importo'),
    db.raw('importo_eur::float8 as importo_eur'), 'data_ora', db.raw('giorno::text as giorno'), 'cod_anagrafe', 'risolto_da', 'cod_decisione', 'created_by', 'created_at',
  ],
  sorts: { data_ora: [{ column: 'data_ora', type: 'timestamp' }, { column: 'id', type: 'uuid' }] },
  defaultSort: '-data_ora',
  filters: {
    cod_anagrafe: { apply: (qb, v) => qb.where('cod_anagrafe', v), sample: 'KYTANA-00007' },
    chain: { apply: (qb, v) => qb.where('chain', v), sample: 'ethereum' },
    dal: { apply: (qb, v) => qb.whereRaw(`data_ora >= ${romeDay(0)}`, [v]), sample: '2026-03-01' },
    al: { apply: (qb, v) => qb.whereRaw(`data_ora < ${romeDay(1)}`, [v]), sample: '2025-01-31' },
  },
  limit: { default: 25, max: 200 },
});

/**
 * KYT alerts (GET /api/kyt/alerts, /kyt/alerts): the alerts of origine `kyt`, with the decision
 * that raised each (the spec names a KYT alert by it). Read on the alerts' origine index.
 */
export const kytAlertsList = defineList<{ stato: AlertStatus; cod_anagrafe: string }>({
  name: 'monitoring.kyt-alerts',
  table: 'monitoring_alert',
  from: (db) => db('monitoring_alert as a').whereNull('a.deleted_at').andWhere('a.origine', 'kyt')
    .leftJoin('anagrafe as an', (j) => { j.on('an.cod_azienda', 'a.cod_azienda').andOn('an.cod_anagrafe', 'a.cod_anagrafe'); })
    .leftJoin('monitoring_regole as r', (j) => { j.on('r.cod_azienda', 'a.cod_azienda').andOn('r.cod_regola', 'a.cod_regola'); }),
  tenantColumn: 'a.cod_azienda',
  scopes: ['tenant'],
  columns: () => [
    'a.id', 'a.cod_alert', 'a.cod_anagrafe', 'an.denominazione as cliente_nome', 'a.cod_regola', 'r.nome as regola_nome', 'a.tipologia', 'a.stato',
    'a.punteggio', 'a.data_rilevazione', 'a.riscontri', 'a.cod_decisione', 'a.cod_caso', 'a.created_at',
  ],
  sorts: { data_rilevazione: [{ column: 'a.data_rilevazione', type: 'timestamp' }, { column: 'a.id', type: 'uuid' }] },
  defaultSort: '-data_rilevazione',
  filters: {
    stato: { apply: (qb, v) => qb.where('a.stato', v), sample: 'new' },
    cod_anagrafe: { apply: (qb, v) => qb.where('a.cod_anagrafe', v), sample: 'ALRANA-00007' },
  },
  limit: { default: 25, max: 200 },
});
