import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { Deps } from '../../../deps';
import { withTenant } from '../../../db/tenant';
import { HttpError, notFound, ValidationError } from '../../../http/errors';
import { isUuid } from '../../../kit/ids';
import { recordSearchAttributes } from '../../../../temporal/search-attributes';
import {
  RISK_RUN_RECORD_TYPE, RISK_RUN_WORKFLOW_TYPE, riskRunWorkflowId, type RiskRunInput, type RiskRunTipo,
} from '../../../../workflows/risk/risk-portfolio.contract';
import { appendAudit } from '../../audit';
import { activeRuleSet } from '../index';
import { finishRun } from './runs.lifecycle';
import { getRun, runningRun, type RunRow } from './runs.repo';

const TIPO_LABEL: Record<RiskRunTipo, string> = { ricalcolo: 'un ricalcolo del portafoglio', simulazione: 'una simulazione' };

/**
 * Starts a portfolio run: a recalculation with the active rule set (the only version it accepts),
 * or a dry run of any version of the tenant (usually the draft). One run of each kind at a time per
 * tenant: a second is a 409 naming the running one. The row and its audit event are committed
 * before the workflow starts; a start that fails marks the row failed.
 */
export async function startRun(deps: Deps, p: { codAzienda: string; actor: string; tipo: RiskRunTipo; versioneId?: string | null }): Promise<RunRow> {
  const { codAzienda, actor, tipo } = p;
  if (p.versioneId && !isUuid(p.versioneId)) throw new ValidationError([{ path: 'versione_id', message: 'Versione non valida' }]);
  const id = randomUUID();
  const workflowId = riskRunWorkflowId(codAzienda, id);
  const run = await withTenant(deps.db, { codAzienda, actor }, async (trx) => {
    const active = await activeRuleSet(trx, codAzienda);
    const versioneId = p.versioneId ?? (tipo === 'ricalcolo' ? active.id : null);
    if (!versioneId) throw new ValidationError([{ path: 'versione_id', message: 'Scegli la versione delle regole da simulare' }]);
    const versione = await trx('rischio_versioni').where({ id: versioneId }).first('id', 'stato', 'versione') as { id: string; stato: string; versione: number } | undefined;
    if (!versione) throw new ValidationError([{ path: 'versione_id', message: 'Versione delle regole inesistente' }]);
    if (tipo === 'ricalcolo' && versione.id !== active.id) {
      throw new ValidationError([{ path: 'versione_id', message: 'Il ricalcolo del portafoglio usa solo la versione attiva: per provare un\'altra versione avvia una simulazione' }]);
    }
    const running = await runningRun(trx, codAzienda, tipo);
    if (running) throw alreadyRunning(tipo, running);
    // The partial unique index decides between two requests that passed the check above at once.
    const [row] = await trx('rischio_esecuzioni').insert({
      id, cod_azienda: codAzienda, tipo, versione_id: versione.id, stato: 'running', workflow_id: workflowId, started_by: actor,
    }).onConflict(trx.raw("(cod_azienda, tipo) where stato = 'running'")).ignore().returning('*') as RunRow[];
    if (!row) throw alreadyRunning(tipo, await runningRun(trx, codAzienda, tipo));
    await appendAudit(trx, { codAzienda, actor, action: 'risk.run.started', entityType: 'rischio_esecuzione', entityId: id, data: { tipo, versione_id: versione.id, versione: versione.versione } });
    return row;
  });
  const input: RiskRunInput = { runId: id, codAzienda };
  try {
    const client = await deps.temporal.get();
    await client.workflow.start(RISK_RUN_WORKFLOW_TYPE, {
      workflowId, taskQueue: deps.temporal.taskQueue, args: [input],
      typedSearchAttributes: recordSearchAttributes({ codAzienda, recordType: RISK_RUN_RECORD_TYPE, recordId: id, status: 'running' }),
    });
  } catch (err) {
    await finishRun(deps.db, { runId: id, codAzienda, stato: 'failed', errore: 'Avvio dell\'esecuzione non riuscito: riprova', actor });
    throw err;
  }
  return run;
}

const alreadyRunning = (tipo: RiskRunTipo, running: RunRow | undefined) =>
  new HttpError(409, 'RUN_IN_PROGRESS', 'Esecuzione già in corso', `C'è già ${TIPO_LABEL[tipo]} in corso: attendi che finisca o annullala`, { running_id: running?.id ?? null });

/** The run of the caller's tenant, or 404 (another tenant's is invisible under row-level security). */
export async function loadRun(deps: Deps, codAzienda: string, actor: string, id: string): Promise<RunRow> {
  const run = isUuid(id) ? await withTenant(deps.db, { codAzienda, actor }, (trx) => getRun(trx, id)) : undefined;
  if (!run) throw notFound('Esecuzione');
  return run;
}

/**
 * Asks the run's workflow to stop: its chunk stops at the next batch and the workflow records the
 * run as cancelled. A run whose workflow is gone (the history was deleted) is closed here. A run
 * already ended is a 409.
 */
export async function cancelRun(deps: Deps, p: { codAzienda: string; actor: string; id: string }): Promise<RunRow> {
  const run = await loadRun(deps, p.codAzienda, p.actor, p.id);
  if (run.stato !== 'running') {
    throw new HttpError(409, 'INVALID_TRANSITION', 'Esecuzione già terminata', 'L\'esecuzione è già terminata: non c\'è nulla da annullare', { stato: run.stato, allowed: [] });
  }
  try {
    const client = await deps.temporal.get();
    await client.workflow.getHandle(run.workflow_id).cancel();
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
  // The row says cancelled at once (the pages stop polling); the workflow's own finish then finds it ended.
  return (await finishRun(deps.db, { runId: run.id, codAzienda: p.codAzienda, stato: 'cancelled', actor: p.actor }))!;
}
