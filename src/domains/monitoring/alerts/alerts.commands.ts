import type { Knex } from 'knex';
import type { Deps } from '../../../deps';
import { assertReferencesInTenant } from '../../../db/references';
import { withTenant } from '../../../db/tenant';
import type { SessionUser } from '../../../http/context';
import { conflict, notFound } from '../../../http/errors';
import { staffActor } from '../../../kit/actor';
import { decideInTransaction } from '../../../kit/process';
import { getSetting } from '../../admin';
import { appendAudit } from '../../audit';
import { notify } from '../../notifications';
import type { QueuedMessage } from '../../outbox';
import type { MachineDef } from '../../../../workflows/lib/machine';
import { alertMachine, DISMISSALS, type AlertStatus, type Disposizione } from '../../../../workflows/monitoring-alert/monitoring-alert.machine';
import { kytAlertMachine } from '../../../../workflows/monitoring-alert/kyt-alert.machine';
import { REJECTION_MESSAGES } from '../monitoring.labels';
import { findAlert, type AlertRow } from './alerts.repo';

/**
 * The alert's table process: every change locks the row, asks the machine (the monitoring
 * alert's, or the KYT alert's for origine 'kyt'), writes the row and its audit event in one
 * tenant transaction. Nothing waits on a workflow; escalation (alerts.escalate.ts) is the one step
 * that reaches another area's process.
 */
export const machineFor = (row: Pick<AlertRow, 'origine'>): MachineDef<string, string> =>
  (row.origine === 'kyt' ? kytAlertMachine : alertMachine) as MachineDef<string, string>;

const MESSAGES = { FOUR_EYES_REQUIRED: REJECTION_MESSAGES.FOUR_EYES_REQUIRED! };

export function decide(row: AlertRow, action: string, user: SessionUser, input: Record<string, unknown> = {}) {
  return decideInTransaction(machineFor(row), { state: row.stato, action, actor: staffActor(user), record: { ...row }, input, messages: MESSAGES }) as AlertStatus;
}

export const tenantTx = <T>(deps: Deps, codAzienda: string, user: SessionUser, fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(deps.db, { codAzienda, actor: user.username }, fn);

export async function lockAlert(trx: Knex.Transaction, codAzienda: string, id: string): Promise<AlertRow> {
  const row = await findAlert(trx, codAzienda, id, true);
  if (!row) throw notFound('Alert', 'm');
  return row;
}

const audit = (trx: Knex.Transaction, codAzienda: string, user: SessionUser, action: Parameters<typeof appendAudit>[1]['action'], row: AlertRow, data: Record<string, unknown>) =>
  appendAudit(trx, { codAzienda, actor: user.username, action, entityType: 'monitoring_alert', entityId: row.id, data: { cod_alert: row.cod_alert, ...data } });

/** The tenant's score from which a dismissal needs a second person (setting monitoring.soglia_quattro_occhi). */
export const fourEyesThreshold = (trx: Knex.Transaction, codAzienda: string) => getSetting(trx, 'monitoring.soglia_quattro_occhi', codAzienda);

export const needsSecondPerson = (row: Pick<AlertRow, 'punteggio'>, disposizione: Disposizione, soglia: number) =>
  DISMISSALS.includes(disposizione) && row.punteggio >= soglia;

/** assign: the alert is someone's (a user of the tenant, active, who works records). */
export async function assignAlert(deps: Deps, codAzienda: string, user: SessionUser, id: string, assegnatario: string) {
  return tenantTx(deps, codAzienda, user, async (trx) => {
    const row = await lockAlert(trx, codAzienda, id);
    const to = decide(row, 'assign', user, { assegnatario });
    await assertReferencesInTenant(trx, codAzienda, { assegnatario: { kind: 'utente', value: assegnatario } });
    const now = new Date();
    await trx('monitoring_alert').where({ id: row.id })
      .update({ stato: to, assegnatario, assigned_by: user.cod_utente, assigned_at: now, updated_at: now });
    await audit(trx, codAzienda, user, 'monitoring.alert.assign', row, { from: row.stato, to, assegnatario, ...(row.assegnatario ? { precedente: row.assegnatario } : {}) });
    return row.id;
  });
}

export interface CloseResult { id: string; outcome: 'closed' | 'closing'; sos_suggerita: boolean }

/**
 * close. A dismissal (falso_positivo, giustificato) of an alert whose score reaches the tenant's
 * threshold is only proposed: the alert waits in `closing` until a compliance officer or SOS
 * delegate other than the proposer confirms it with the same disposition (the same call, by them).
 * A `sospetto` closure flags the alert and tells the SOS delegates and compliance officers that a
 * suspicious transaction report should be considered.
 */
export async function closeAlert(deps: Deps, codAzienda: string, user: SessionUser, id: string, body: { disposizione: Disposizione; motivazione: string }): Promise<CloseResult> {
  let messages: QueuedMessage[] = [];
  const result = await tenantTx(deps, codAzienda, user, async (trx): Promise<CloseResult> => {
    const row = await lockAlert(trx, codAzienda, id);
    const now = new Date();
    if (row.stato === 'closing') {
      const to = decide(row, 'confirm-closure', user, body);
      if (row.disposizione !== body.disposizione) {
        throw conflict('DISPOSIZIONE_DIFFERENTE', `La chiusura proposta indica «${row.disposizione}»: la conferma deve riportare la stessa disposizione, o va respinta`,
          { disposizione_proposta: row.disposizione });
      }
      await trx('monitoring_alert').where({ id: row.id }).update({ stato: to, closed_by: user.cod_utente, closed_at: now, updated_at: now });
      await audit(trx, codAzienda, user, 'monitoring.alert.confirm-closure', row, {
        from: row.stato, to, disposizione: body.disposizione, motivazione: body.motivazione, proposta_da: row.chiusura_richiesta_da,
      });
      return { id: row.id, outcome: 'closed', sos_suggerita: false };
    }
    const second = needsSecondPerson(row, body.disposizione, await fourEyesThreshold(trx, codAzienda));
    const to = decide(row, second ? 'propose-closure' : 'close', user, body);
    if (second) {
      await trx('monitoring_alert').where({ id: row.id }).update({
        stato: to, disposizione: body.disposizione, motivazione: body.motivazione, chiusura_richiesta_da: user.cod_utente, chiusura_richiesta_at: now, updated_at: now,
      });
      await audit(trx, codAzienda, user, 'monitoring.alert.propose-closure', row, { from: row.stato, to, disposizione: body.disposizione, motivazione: body.motivazione, punteggio: row.punteggio });
      return { id: row.id, outcome: 'closing', sos_suggerita: false };
    }
    const sos = body.disposizione === 'sospetto';
    await trx('monitoring_alert').where({ id: row.id }).update({
      stato: to, disposizione: body.disposizione, motivazione: body.motivazione, closed_by: user.cod_utente, closed_at: now, sos_suggerita: sos, updated_at: now,
    });
    await audit(trx, codAzienda, user, 'monitoring.alert.close', row, { from: row.stato, to, disposizione: body.disposizione, motivazione: body.motivazione, sos_suggerita: sos });
    if (sos) {
      // Only to who handles suspicious transaction reports: never the customer's pages (tipping-off, art. 39 d.lgs. 231/2007).
      ({ messages } = await notify(trx, {
        codAzienda, role: ['sos', 'co'], tipo: 'monitoring_alert_sospetto',
        titolo: `Alert ${row.cod_alert} chiuso come sospetto: valutare una segnalazione di operazione sospetta`,
        messaggio: `L'alert ${row.cod_alert} è stato chiuso con disposizione «sospetto». Valuta l'invio di una segnalazione di operazione sospetta (SOS) alla UIF.`,
        link: `/alert/${row.id}`, entity: { type: 'monitoring_alert', id: row.id }, dedupKey: `monitoring-alert-sospetto:${row.id}`,
      }, deps.outbox));
    }
    return { id: row.id, outcome: 'closed', sos_suggerita: sos };
  });
  await deps.dispatch(messages);
  return result;
}

/** reopen: a proposed dismissal is turned down (by a confirmer) or withdrawn (by the proposer); the alert is worked again. */
export async function reopenAlert(deps: Deps, codAzienda: string, user: SessionUser, id: string, motivazione: string) {
  return tenantTx(deps, codAzienda, user, async (trx) => {
    const row = await lockAlert(trx, codAzienda, id);
    const to = decide(row, 'reopen', user, { motivazione });
    await trx('monitoring_alert').where({ id: row.id })
      .update({ stato: to, disposizione: null, motivazione: null, chiusura_richiesta_da: null, chiusura_richiesta_at: null, updated_at: new Date() });
    await audit(trx, codAzienda, user, 'monitoring.alert.reopen', row, {
      from: row.stato, to, motivazione, disposizione_proposta: row.disposizione, proposta_da: row.chiusura_richiesta_da,
    });
    return row.id;
  });
}

/** The states in which an alert may be deleted: raised by mistake and not decided yet. */
export const DELETABLE: readonly AlertStatus[] = ['new', 'assigned'];

/** Soft delete with a reason: gone from lists and pages, kept with its audit trail (and its hits, which are not raised again). */
export async function deleteAlert(deps: Deps, codAzienda: string, user: SessionUser, id: string, motivazione: string) {
  return tenantTx(deps, codAzienda, user, async (trx) => {
    const row = await lockAlert(trx, codAzienda, id);
    if (!DELETABLE.includes(row.stato)) {
      throw conflict('ALERT_NOT_DELETABLE', REJECTION_MESSAGES.ALERT_NOT_DELETABLE!, { state: row.stato });
    }
    await trx('monitoring_alert').where({ id: row.id }).update({ deleted_at: new Date(), deleted_by: user.cod_utente, motivo_eliminazione: motivazione });
    await audit(trx, codAzienda, user, 'monitoring.alert.delete', row, { stato: row.stato, motivazione });
    return row.id;
  });
}
