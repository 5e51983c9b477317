import type { Knex } from 'knex';
import { isUuid } from '../../../kit/ids';
import { runList, tenantScope } from '../../../kit/list';
import { CHAIN_ORDER } from '../../audit';
import { movementsByIds } from '../../movements';
import type { AlertStatus, Disposizione, Origine } from '../../../../workflows/monitoring-alert/monitoring-alert.machine';
import { alertsList } from './alerts.list';
import type { ListAlertsQuery } from './alerts.schemas';

/** Reads of alerts, inside withTenant (row-level security keeps them to the tenant; the tenant predicate is explicit besides). */

export interface AlertRow {
  id: string; cod_alert: string; cod_azienda: string; cod_anagrafe: string; cod_rapporto: string | null; cod_regola: string | null;
  versione: number | null; versione_id: string | null; tipologia: string; origine: Origine; stato: AlertStatus; disposizione: Disposizione | null;
  punteggio: number; data_rilevazione: Date; finestra_da: string; finestra_a: string; ultimo_riscontro: Date; riscontri: number;
  chiave_dedup: string; cod_decisione: string | null; evidenza: Record<string, unknown>; raised_by: string;
  assegnatario: string | null; assigned_by: string | null; assigned_at: Date | null; cod_caso: string | null; escalated_by: string | null; escalated_at: Date | null;
  motivazione: string | null; chiusura_richiesta_da: string | null; chiusura_richiesta_at: Date | null; closed_by: string | null; closed_at: Date | null;
  sos_suggerita: boolean; created_at: Date; updated_at: Date;
  cliente_nome?: string | null; codice_esterno?: string | null; regola_nome?: string | null;
}

const COLUMNS = (trx: Knex) => [
  'a.*', trx.raw('a.finestra_da::text as finestra_da'), trx.raw('a.finestra_a::text as finestra_a'),
  'an.denominazione as cliente_nome', trx.raw("to_jsonb(an.*) ->> 'codice_esterno' as codice_esterno"), 'r.nome as regola_nome',
];

/**
 * One alert by its id or its code (ALR-0000001), not deleted; `forUpdate` locks the alert's row
 * only (the joined customer and rule are read, not locked).
 */
export async function findAlert(trx: Knex.Transaction, codAzienda: string, idOrCode: string, forUpdate = false): Promise<AlertRow | undefined> {
  const byId = isUuid(idOrCode);
  if (!byId && !/^ALR-\d{7,}$/.test(idOrCode)) return undefined;
  const q = trx('monitoring_alert as a')
    .leftJoin('anagrafe as an', (j) => { j.on('an.cod_azienda', 'a.cod_azienda').andOn('an.cod_anagrafe', 'a.cod_anagrafe'); })
    .leftJoin('monitoring_regole as r', (j) => { j.on('r.cod_azienda', 'a.cod_azienda').andOn('r.cod_regola', 'a.cod_regola'); })
    .where('a.cod_azienda', codAzienda).whereNull('a.deleted_at').andWhere(byId ? { 'a.id': idOrCode } : { 'a.cod_alert': idOrCode })
    .first(COLUMNS(trx));
  if (forUpdate) q.forUpdate('a');
  const row = await q as AlertRow | undefined;
  return row ? { ...row, evidenza: row.evidenza ?? {} } : undefined;
}

export async function listAlerts(trx: Knex.Transaction, codAzienda: string, q: ListAlertsQuery, me: string) {
  const req: ListAlertsQuery = { ...q, assegnatario: q.assegnatario === 'me' ? me : q.assegnatario };
  return runList<AlertRow>(trx, alertsList, tenantScope(codAzienda), req);
}

/** What lies behind an alert: its operations (read from their months only), its hits, its audit trail. */
export async function alertParts(trx: Knex.Transaction, codAzienda: string, alertId: string) {
  const links = await trx('monitoring_alert_movimenti').where({ cod_azienda: codAzienda, alert_id: alertId })
    .select('movimento_id', trx.raw('data_operazione::text as data_operazione')) as { movimento_id: string; data_operazione: string }[];
  const movimenti = await movementsByIds(trx, codAzienda, links.map((l) => l.movimento_id), links.map((l) => l.data_operazione));
  const riscontri = await trx('monitoring_alert_riscontri').where({ cod_azienda: codAzienda, alert_id: alertId })
    .orderBy([{ column: 'data_rilevazione', order: 'desc' }, { column: 'chiave' }])
    .select('chiave', 'origine', 'versione', 'punteggio', 'data_rilevazione', trx.raw('finestra_da::text as finestra_da'), trx.raw('finestra_a::text as finestra_a'), 'cod_decisione', 'evidenza');
  const audit = await trx('audit_events').where({ entity_type: 'monitoring_alert', entity_id: alertId }).orderByRaw(CHAIN_ORDER)
    .select('seq', 'action', 'actor', 'occurred_at', 'data');
  return { movimenti, riscontri, audit };
}

/** The alerts a movement is behind (its page), newest first. */
export async function alertsOfMovement(trx: Knex.Transaction, codAzienda: string, movimentoId: string) {
  return trx('monitoring_alert_movimenti as m').join('monitoring_alert as a', 'a.id', 'm.alert_id')
    .where({ 'm.cod_azienda': codAzienda, 'm.movimento_id': movimentoId }).whereNull('a.deleted_at')
    .orderBy('a.data_rilevazione', 'desc')
    .select('a.id', 'a.cod_alert', 'a.tipologia', 'a.stato', 'a.punteggio', 'a.data_rilevazione', 'a.cod_regola') as
    Promise<Pick<AlertRow, 'id' | 'cod_alert' | 'tipologia' | 'stato' | 'punteggio' | 'data_rilevazione' | 'cod_regola'>[]>;
}
