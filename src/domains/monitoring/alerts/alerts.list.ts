import { defineList } from '../../../kit/list';
import type { AlertStatus, Origine } from '../../../../workflows/monitoring-alert/monitoring-alert.machine';
import type { Tipologia } from '../monitoring.typologies';

/** The states in which an alert still waits for someone. */
export const OPEN_STATES: readonly AlertStatus[] = ['new', 'assigned', 'closing'];

/** A day (YYYY-MM-DD) at midnight in Rome, as PostgreSQL computes it: a constant the index range reads. */
const romeDay = (offset: 0 | 1) => `((?::date + ${offset})::timestamp at time zone 'Europe/Rome')`;

/**
 * The alerts list (/alert, GET /api/monitoring/alerts, the export): deleted alerts are never listed
 * (every index is partial on `deleted_at is null`). The customer's name and external code and the
 * rule's name come from one index lookup each per row of the page.
 */
export const alertsList = defineList<{
  stato: AlertStatus; tipologia: Tipologia; cod_regola: string; cod_anagrafe: string; assegnatario: string; origine: Origine;
  dal: string; al: string; aperti: boolean;
}>({
  name: 'monitoring.alerts',
  table: 'monitoring_alert',
  from: (db) => db('monitoring_alert as a').whereNull('a.deleted_at')
    .leftJoin('anagrafe as an', (j) => { j.on('an.cod_azienda', 'a.cod_azienda').andOn('an.cod_anagrafe', 'a.cod_anagrafe'); })
    .leftJoin('monitoring_regole as r', (j) => { j.on('r.cod_azienda', 'a.cod_azienda').andOn('r.cod_regola', 'a.cod_regola'); }),
  tenantColumn: 'a.cod_azienda',
  scopes: ['tenant'],
  columns: (db) => [
    'a.id', 'a.cod_alert', 'a.cod_azienda', 'a.cod_anagrafe', 'a.cod_rapporto', 'a.cod_regola', 'a.versione', 'a.tipologia', 'a.origine', 'a.stato',
    'a.disposizione', 'a.punteggio', 'a.data_rilevazione', db.raw('a.finestra_da::text as finestra_da'), db.raw('a.finestra_a::text as finestra_a'),
    'a.ultimo_riscontro', 'a.riscontri', 'a.assegnatario', 'a.cod_caso', 'a.sos_suggerita', 'a.chiusura_richiesta_da', 'a.closed_at', 'a.created_at', 'a.updated_at',
    'a.cod_decisione', 'an.denominazione as cliente_nome',
    // Read through the row's JSON so the list works before and after the customer's external code exists (issue 23, part 0).
    db.raw("to_jsonb(an.*) ->> 'codice_esterno' as codice_esterno"),
    'r.nome as regola_nome',
  ],
  sorts: {
    data_rilevazione: [{ column: 'a.data_rilevazione', type: 'timestamp' }, { column: 'a.id', type: 'uuid' }],
    punteggio: [{ column: 'a.punteggio', type: 'integer' }, { column: 'a.id', type: 'uuid' }],
    ultimo_riscontro: [{ column: 'a.ultimo_riscontro', type: 'timestamp' }, { column: 'a.id', type: 'uuid' }],
  },
  defaultSort: '-data_rilevazione',
  filters: {
    stato: { apply: (qb, v) => qb.where('a.stato', v), sample: 'new' },
    tipologia: { apply: (qb, v) => qb.where('a.tipologia', v), sample: 'fan_in' },
    cod_regola: { apply: (qb, v) => qb.where('a.cod_regola', v), sample: 'alrreg_7' },
    cod_anagrafe: { apply: (qb, v) => qb.where('a.cod_anagrafe', v), sample: 'ALRANA-00007' },
    // A user id: the pages and the API turn `me` into the caller's before the list is read.
    assegnatario: { apply: (qb, v) => qb.where('a.assegnatario', v), sample: '00000000-0000-4000-8000-000000000001' },
    origine: { apply: (qb, v) => qb.where('a.origine', v), sample: 'manuale' },
    dal: { apply: (qb, v) => qb.whereRaw(`a.data_rilevazione >= ${romeDay(0)}`, [v]), sample: '2026-06-01' },
    al: { apply: (qb, v) => qb.whereRaw(`a.data_rilevazione < ${romeDay(1)}`, [v]), sample: '2025-01-31' },
    aperti: {
      apply: (qb, v) => (v ? qb.whereIn('a.stato', OPEN_STATES as AlertStatus[]) : qb.whereNotIn('a.stato', OPEN_STATES as AlertStatus[])),
      sample: true,
    },
  },
  // By the alert's and the customer's codes, on the alert's own row (a condition on the joined customer would make the
  // planner join every alert before filtering); a customer is found by name on /anagrafe.
  search: {
    apply: (qb, like) => qb.where((w) => w.whereILike('a.cod_alert', like).orWhereILike('a.cod_anagrafe', like)),
    sample: 'ALR-00',
  },
  limit: { default: 25, max: 200 },
});
