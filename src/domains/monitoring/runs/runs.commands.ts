import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { Knex } from 'knex';
import type { Deps } from '../../../deps';
import { withTenant } from '../../../db/tenant';
import { conflict, HttpError, notFound } from '../../../http/errors';
import { UPDATE_DEADLINE_MS } from '../../../kit/process';
import { recordSearchAttributes } from '../../../../temporal/search-attributes';
import {
  MONITORING_DAILY_WORKFLOW_TYPE, MONITORING_RUN_RECORD_TYPE, MONITORING_RUN_WORKFLOW_TYPE, monitoringDailyWorkflowId, monitoringRunWorkflowId,
  type MonitoringDailyInput, type MonitoringRunInput,
} from '../../../../workflows/monitoring-runs/monitoring-runs.contract';
import { addDays } from '../engine/engine.dates';
import { versionHash } from '../evaluation/rule-set';
import { findRule, ruleVersions } from '../rules/rules.repo';
import { ruleVersionData } from './runs.backtest';
import { finishRun } from './runs.lifecycle';
import { findRun, insertRun, type RunRow } from './runs.repo';
import type { StartBacktestInput, StartReplayInput } from './runs.schemas';

/**
 * Starting and stopping the monitoring runs from the API and the pages. A replay runs one at a
 * time per tenant, a backtest one at a time per draft (a second is a 409 naming the running one).
 * The row and its audit event are committed before the workflow starts; a start that fails marks
 * the row failed.
 */

export const todayInRome = (now = new Date()) => now.toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' });
/** The day that closed last: yesterday in Rome. */
export const lastClosedDay = (now = new Date()) => addDays(todayInRome(now), -1);
/** A backtest's period when none is given: the last year of stored history up to yesterday. */
export const DEFAULT_BACKTEST_DAYS = 365;

const alreadyRunning = (what: string, running: { id: string }) =>
  new HttpError(409, 'RUN_IN_PROGRESS', 'Esecuzione già in corso', `C'è già ${what} in corso: attendi che finisca o annullala`, { running_id: running.id });

async function startWorkflow(deps: Deps, run: RunRow, input: MonitoringRunInput, actor: string): Promise<void> {
  try {
    const client = await deps.temporal.get();
    await client.withDeadline(Date.now() + UPDATE_DEADLINE_MS, () => client.workflow.start(MONITORING_RUN_WORKFLOW_TYPE, {
      workflowId: run.workflow_id, taskQueue: deps.temporal.taskQueue, args: [input],
      typedSearchAttributes: recordSearchAttributes({ codAzienda: run.cod_azienda, recordType: MONITORING_RUN_RECORD_TYPE, recordId: run.id, status: 'running' }),
    }));
  } catch (err) {
    await finishRun(deps.db, { codAzienda: run.cod_azienda, runId: run.id, stato: 'failed', errore: 'Avvio dell\'esecuzione non riuscito: riprova' }).catch(() => undefined);
    deps.logger.warn({ err, runId: run.id, actor }, 'monitoring run: start failed');
    throw err;
  }
}

/** A replay's row (one at a time per tenant: a running one is a 409), in the caller's tenant transaction; its workflow is started by the caller. */
export async function planReplay(trx: Knex.Transaction, p: { codAzienda: string; actor: string } & StartReplayInput): Promise<RunRow> {
  const id = randomUUID();
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`monitoring-run|${p.codAzienda}|replay`]);
  const running = await trx('monitoring_esecuzioni').where({ cod_azienda: p.codAzienda, tipo: 'replay', stato: 'running' }).first('id');
  if (running) throw alreadyRunning('una riesecuzione dello storico', running as { id: string });
  return insertRun(trx, { id, codAzienda: p.codAzienda, tipo: 'replay', dal: p.dal, al: p.al, workflow_id: monitoringRunWorkflowId(p.codAzienda, 'replay', id), avviata_da: p.actor });
}

export async function startReplay(deps: Deps, p: { codAzienda: string; actor: string } & StartReplayInput): Promise<RunRow> {
  const run = await withTenant(deps.db, { codAzienda: p.codAzienda, actor: p.actor }, (trx) => planReplay(trx, p));
  const id = run.id;
  await startWorkflow(deps, run, { codAzienda: p.codAzienda, runId: id, tipo: 'replay', engineTaskQueue: deps.config.temporal.engineTaskQueue }, p.actor);
  return run;
}

/** A backtest of the rule's draft against its version in force, over the period given or the last year. */
export async function startBacktest(deps: Deps, p: { codAzienda: string; actor: string; rule: string } & StartBacktestInput): Promise<RunRow> {
  const id = randomUUID();
  const al = p.al ?? lastClosedDay();
  const dal = p.dal ?? addDays(al, -(DEFAULT_BACKTEST_DAYS - 1));
  if (dal > al) throw conflict('PERIODO_NON_VALIDO', 'Il periodo del backtest termina prima di iniziare');
  const run = await withTenant(deps.db, { codAzienda: p.codAzienda, actor: p.actor }, async (trx) => {
    const rule = await findRule(trx, p.codAzienda, p.rule, true);
    if (!rule) throw notFound('Regola');
    const versions = await ruleVersions(trx, rule.id);
    const draft = versions.find((v) => v.stato === 'bozza');
    if (!draft) throw conflict('NO_DRAFT', 'La regola non ha una bozza da provare', { allowed_actions: ['modifica'] });
    const active = versions.find((v) => v.stato === 'attiva');
    const running = await trx('monitoring_esecuzioni').where({ cod_azienda: p.codAzienda, tipo: 'backtest', stato: 'running', versione_id: draft.id }).first('id');
    if (running) throw alreadyRunning('un backtest di questa bozza', running as { id: string });
    const data = await ruleVersionData(trx, p.codAzienda, draft.id);
    return insertRun(trx, {
      id, codAzienda: p.codAzienda, tipo: 'backtest', dal, al, versione_id: draft.id, versione_hash: versionHash(data!), attiva_id: active?.id ?? null,
      workflow_id: monitoringRunWorkflowId(p.codAzienda, 'backtest', id), avviata_da: p.actor,
    });
  });
  await startWorkflow(deps, run, { codAzienda: p.codAzienda, runId: id, tipo: 'backtest', engineTaskQueue: deps.config.temporal.engineTaskQueue }, p.actor);
  return run;
}

/** The daily batch of a day (again): the day's own workflow, joined when it already runs. */
export async function startDaily(deps: Deps, p: { codAzienda: string; actor: string; giorno: string }): Promise<{ workflow_id: string }> {
  if (p.giorno > lastClosedDay()) throw conflict('GIORNO_NON_CHIUSO', 'Si può elaborare solo una giornata già chiusa (fino a ieri)');
  const workflowId = monitoringDailyWorkflowId(p.codAzienda, p.giorno);
  const input: MonitoringDailyInput = { codAzienda: p.codAzienda, giorno: p.giorno, requestedBy: p.actor, engineTaskQueue: deps.config.temporal.engineTaskQueue };
  const client = await deps.temporal.get();
  await client.withDeadline(Date.now() + UPDATE_DEADLINE_MS, () => client.workflow.start(MONITORING_DAILY_WORKFLOW_TYPE, {
    workflowId, taskQueue: deps.temporal.taskQueue, args: [input], workflowIdConflictPolicy: 'USE_EXISTING',
    typedSearchAttributes: recordSearchAttributes({ codAzienda: p.codAzienda, recordType: MONITORING_RUN_RECORD_TYPE, recordId: workflowId, status: 'running' }),
  }));
  return { workflow_id: workflowId };
}

export async function loadRun(deps: Deps, codAzienda: string, actor: string, id: string): Promise<RunRow> {
  const run = await withTenant(deps.db, { codAzienda, actor }, (trx) => findRun(trx, codAzienda, id));
  if (!run) throw notFound('Esecuzione');
  return run;
}

/** Stops a run: its chunk stops at the next batch; what was done stays. A run already ended is a 409. */
export async function cancelRun(deps: Deps, p: { codAzienda: string; actor: string; id: string }): Promise<RunRow> {
  const run = await loadRun(deps, p.codAzienda, p.actor, p.id);
  if (run.stato !== 'running') {
    throw new HttpError(409, 'INVALID_TRANSITION', 'Esecuzione già terminata', 'L\'esecuzione è già terminata: non c\'è nulla da annullare', { state: run.stato, allowed_actions: [] });
  }
  try {
    const client = await deps.temporal.get();
    await client.workflow.getHandle(run.workflow_id).cancel();
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
  await finishRun(deps.db, { codAzienda: p.codAzienda, runId: run.id, stato: 'cancelled', actor: p.actor });
  return loadRun(deps, p.codAzienda, p.actor, p.id);
}
