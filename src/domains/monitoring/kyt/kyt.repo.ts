import type { Knex } from 'knex';
import { runList, tenantScope } from '../../../kit/list';
import { KYT_COLUMNS, type KytEventRow } from './kyt.commands';
import { kytEventsList } from './kyt.list';
import type { ListKytEventsQuery } from './kyt.schemas';

/** Reads of KYT events and of the alerts of KYT decisions, inside withTenant (the tenant predicate explicit besides). */

export const listKytEvents = (trx: Knex.Transaction, codAzienda: string, q: ListKytEventsQuery) =>
  runList<KytEventRow>(trx, kytEventsList, tenantScope(codAzienda), q);

const EVENT_CODE = /^KYT-\d{7,}$/;

/** A KYT event by its code (KYT-0000001); undefined when not the tenant's. */
export async function findKytEvent(trx: Knex.Transaction, codAzienda: string, codEvento: string): Promise<KytEventRow | undefined> {
  if (!EVENT_CODE.test(codEvento)) return undefined;
  return trx('kyt_eventi').where({ cod_azienda: codAzienda, cod_evento: codEvento }).first(KYT_COLUMNS(trx)) as Promise<KytEventRow | undefined>;
}

/** The KYT event a decision judged, when it judged one. */
export async function kytEventOfDecision(trx: Knex.Transaction, codAzienda: string, eventoId: string): Promise<KytEventRow | undefined> {
  return trx('kyt_eventi').where({ cod_azienda: codAzienda, id: eventoId }).first(KYT_COLUMNS(trx)) as Promise<KytEventRow | undefined>;
}

/**
 * The KYT alert a decision raised or added a hit to (the spec names KYT alerts by their decision):
 * the alert whose first decision it is, else the one that has a hit of it.
 */
export async function kytAlertOfDecision(trx: Knex.Transaction, codAzienda: string, codDecisione: string): Promise<{ id: string } | undefined> {
  const own = await trx('monitoring_alert').where({ cod_azienda: codAzienda, cod_decisione: codDecisione, origine: 'kyt' }).whereNull('deleted_at').first('id');
  if (own) return own as { id: string };
  return trx('monitoring_alert_riscontri as h').join('monitoring_alert as a', 'a.id', 'h.alert_id')
    .where({ 'h.cod_azienda': codAzienda, 'h.cod_decisione': codDecisione, 'a.origine': 'kyt' }).whereNull('a.deleted_at')
    .orderBy('a.data_rilevazione').first('a.id') as Promise<{ id: string } | undefined>;
}
