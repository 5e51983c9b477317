import type { Deps } from '../../../deps';
import type { SessionUser } from '../../../http/context';
import { data as dataIt } from '../../../http/format';
import { notFound } from '../../../http/errors';
import { uuidFromKey } from '../../../kit/ids';
import { appendAudit } from '../../audit';
import { openInvestigationCase } from '../../cases';
import type { CASE_PRIORITA } from '../../../../workflows/case/case.contract';
import { DISPOSIZIONE_LABELS, ORIGINE_LABELS, TIPOLOGIA_LABELS } from '../monitoring.labels';
import { decide, lockAlert, tenantTx } from './alerts.commands';
import { findAlert, type AlertRow } from './alerts.repo';

type Priorita = (typeof CASE_PRIORITA)[number];

/** The case opened from an alert: the same alert, the same case (a retried escalation finds it). */
export const caseIdForAlert = (codAzienda: string, alertId: string) => uuidFromKey(`case-from-monitoring-alert:${codAzienda}:${alertId}`);

/** A case's priority from the alert's score, unless the person escalating chooses one. */
export const priorityForScore = (punteggio: number): Priorita => (punteggio >= 80 ? 'alta' : punteggio >= 50 ? 'media' : 'bassa');

function caseText(row: AlertRow, motivazione: string | undefined) {
  const tipologia = TIPOLOGIA_LABELS[row.tipologia as keyof typeof TIPOLOGIA_LABELS] ?? row.tipologia;
  const lines = [
    `Aperto dall'alert ${row.origine === 'kyt' ? 'KYT' : 'di monitoraggio'} ${row.cod_alert} (/alert/${row.id}).`,
    // A KYT alert's decision page shows the transfer (address, chain, asset) and what every rule read.
    ...(row.origine === 'kyt' && row.cod_decisione ? [`Decisione KYT: /kyt/decision/${row.cod_decisione}`] : []),
    `Tipologia: ${tipologia}. Origine: ${ORIGINE_LABELS[row.origine] ?? row.origine}.`,
    row.cod_regola ? `Regola: ${row.regola_nome ?? row.cod_regola} (${row.cod_regola}, versione ${row.versione}).` : 'Alert inserito a mano.',
    `Punteggio ${row.punteggio}, ${row.riscontri} ${row.riscontri === 1 ? 'riscontro' : 'riscontri'}, periodo dal ${dataIt(row.finestra_da)} al ${dataIt(row.finestra_a)}.`,
    ...(row.disposizione ? [`Disposizione proposta: ${DISPOSIZIONE_LABELS[row.disposizione]}.`] : []),
    ...(motivazione ? ['', `Motivazione dell'escalation: ${motivazione}`] : []),
  ];
  return { titolo: `Alert ${row.cod_alert} · ${tipologia} · ${row.cliente_nome ?? row.cod_anagrafe}`.slice(0, 200), descrizione: lines.join('\n') };
}

/**
 * escalate: opens an investigation case through the cases area's contract and links it. The
 * machine is asked first (a refusal opens nothing); the case's id follows from the alert's, so
 * when the link fails after the case opened, the same call again finds that case and links it.
 * Two escalations at once open one case; the second is refused once the first linked it.
 */
export async function escalateAlert(deps: Deps, codAzienda: string, user: SessionUser, id: string, body: { motivazione?: string | undefined; priorita?: Priorita | undefined }) {
  const row = await tenantTx(deps, codAzienda, user, async (trx) => {
    const r = await findAlert(trx, codAzienda, id);
    if (!r) return undefined;
    decide(r, 'escalate', user, body);
    // The assignee follows the alert into the case when they still work here.
    const active = r.assegnatario ? await trx('utenti').where({ cod_utente: r.assegnatario, cod_azienda: codAzienda, attivo: true }).first('cod_utente') : undefined;
    return { ...r, assegnatario: active ? r.assegnatario : null };
  });
  if (!row) throw notFound('Alert', 'm');
  const caseId = caseIdForAlert(codAzienda, row.id);
  await openInvestigationCase(deps, codAzienda, user, {
    ...caseText(row, body.motivazione), tipo: 'alert_monitoraggio', priorita: body.priorita ?? priorityForScore(row.punteggio),
    cod_anagrafe: row.cod_anagrafe, assegnatario: row.assegnatario ?? undefined,
  }, { caseId });
  await tenantTx(deps, codAzienda, user, async (trx) => {
    const locked = await lockAlert(trx, codAzienda, row.id);
    const to = decide(locked, 'escalate', user, body);
    const now = new Date();
    await trx('monitoring_alert').where({ id: locked.id }).update({ stato: to, cod_caso: caseId, escalated_by: user.cod_utente, escalated_at: now, updated_at: now });
    await appendAudit(trx, {
      codAzienda, actor: user.username, action: 'monitoring.alert.escalate', entityType: 'monitoring_alert', entityId: locked.id,
      data: { cod_alert: locked.cod_alert, from: locked.stato, to, cod_caso: caseId, ...(body.motivazione ? { motivazione: body.motivazione } : {}) },
    });
  });
  return { id: row.id, cod_caso: caseId };
}
