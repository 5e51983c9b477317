import { WorkflowNotFoundError } from '@temporalio/client';
import type { ApplicationFailure } from '@temporalio/common';
import type { Deps } from '../../../deps';
import { withTenant } from '../../../db/tenant';
import type { SessionUser } from '../../../http/context';
import { conflict, HttpError, notFound } from '../../../http/errors';
import { staffActor } from '../../../kit/actor';
import { decideInTransaction, executeUpdate, startWithUpdate, type ProcessClient, type UpdateErrorMapping } from '../../../kit/process';
import { recordSearchAttributes } from '../../../../temporal/search-attributes';
import {
  createReleaseUpdate, MONITORING_RELEASE_RECORD_TYPE, MONITORING_RELEASE_WORKFLOW_TYPE, RELEASE_FAILURES, releaseTransitionUpdate, releaseWorkflowId,
  type ReleaseRecord, type ReleaseWorkflowInput,
} from '../../../../workflows/monitoring-release/monitoring-release.contract';
import { releaseMachine, type ReleaseAction, type ReleaseStatus } from '../../../../workflows/monitoring-release/monitoring-release.machine';
import { findRule, ruleVersions } from '../rules/rules.repo';
import { computeGates, type ReleaseGates } from './release.gates';

/**
 * The release of a rule's draft from the API and the pages: the request starts the draft's release
 * workflow (joined when it already waits), approval and refusal are its updates. The machine's
 * refusals are 409 (with the allowed actions) and 403 (four-eyes); gates that do not pass at
 * approval are a 409 `RELEASE_GATES_NOT_MET` carrying the gates.
 */

const MESSAGES = { FOUR_EYES_REQUIRED: 'La messa in vigore deve essere approvata da una persona diversa da chi l\'ha richiesta (principio dei quattro occhi)' };

const failures: UpdateErrorMapping['failures'] = (type: string, f: ApplicationFailure) => {
  if (type === RELEASE_FAILURES.gatesNotMet) return conflict('RELEASE_GATES_NOT_MET', f.message, { cancelli: f.details?.[0] ?? null, allowed_actions: ['respingi'] });
  if (type === RELEASE_FAILURES.notADraft) return conflict('NOT_A_DRAFT', f.message, { ...(f.details?.[0] as object | undefined), allowed_actions: [] });
  return undefined;
};

const pcOf = async (deps: Deps): Promise<ProcessClient> => ({ client: await deps.temporal.get(), taskQueue: deps.temporal.taskQueue });

export interface ReleaseView { rilascio: ReleaseRecord | null; cancelli: ReleaseGates }

/** The rule's draft (404 for another tenant's rule, 409 when there is none). */
async function draftOf(deps: Deps, codAzienda: string, actor: string, rule: string) {
  return withTenant(deps.db, { codAzienda, actor }, async (trx) => {
    const r = await findRule(trx, codAzienda, rule);
    if (!r) throw notFound('Regola');
    const draft = (await ruleVersions(trx, r.id)).find((v) => v.stato === 'bozza');
    if (!draft) throw conflict('NO_DRAFT', 'La regola non ha una bozza da mettere in vigore', { allowed_actions: [] });
    return { rule: r, draft };
  });
}

export async function releaseView(deps: Deps, codAzienda: string, actor: string, versionId: string): Promise<ReleaseView> {
  return withTenant(deps.db, { codAzienda, actor }, async (trx) => {
    const cancelli = await computeGates(trx, codAzienda, versionId);
    if (!cancelli) throw notFound('Versione della regola');
    const rilascio = await trx('monitoring_rilasci').where({ cod_azienda: codAzienda, id: versionId }).first() as ReleaseRecord | undefined;
    return { rilascio: rilascio ?? null, cancelli };
  });
}

/** Asks for the draft to be put in force: its release workflow, waiting for a second person. */
export async function requestRelease(deps: Deps, codAzienda: string, user: SessionUser, rule: string, motivazione?: string): Promise<ReleaseView> {
  const { draft } = await draftOf(deps, codAzienda, user.username, rule);
  const input: ReleaseWorkflowInput = { codAzienda, versionId: draft.id };
  await startWithUpdate(await pcOf(deps), {
    workflowType: MONITORING_RELEASE_WORKFLOW_TYPE, workflowId: releaseWorkflowId(codAzienda, draft.id), input,
    searchAttributes: recordSearchAttributes({ codAzienda, recordType: MONITORING_RELEASE_RECORD_TYPE, recordId: draft.id, status: releaseMachine.initial }),
    update: createReleaseUpdate, args: [{ actor: staffActor(user), ...(motivazione ? { motivazione } : {}) }], map: { failures, messages: MESSAGES },
  });
  return releaseView(deps, codAzienda, user.username, draft.id);
}

/**
 * Approves or refuses the draft's release. When no release waits (never asked, or already decided:
 * its workflow has ended) the row answers: the machine's 409 for a decided one, a 409 naming the
 * request for one never asked.
 */
export async function decideRelease(deps: Deps, codAzienda: string, user: SessionUser, rule: string, action: ReleaseAction, motivazione?: string): Promise<ReleaseView> {
  const { draft } = await draftOf(deps, codAzienda, user.username, rule).catch(async (err: unknown) => {
    // A release approved a moment ago leaves no draft: answer as the decided release does.
    if (err instanceof HttpError && err.code === 'NO_DRAFT') throw conflict('NO_DRAFT', 'La regola non ha una bozza in attesa di messa in vigore', { allowed_actions: [] });
    throw err;
  });
  const actor = staffActor(user);
  try {
    await executeUpdate(await pcOf(deps), releaseWorkflowId(codAzienda, draft.id), releaseTransitionUpdate, [{ action, actor, ...(motivazione ? { motivazione } : {}) }],
      { failures, messages: MESSAGES });
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    const row = await withTenant(deps.db, { codAzienda, actor: user.username }, (trx) =>
      trx('monitoring_rilasci').where({ cod_azienda: codAzienda, id: draft.id }).first('stato', 'richiesto_da') as Promise<{ stato: ReleaseStatus; richiesto_da: string } | undefined>);
    if (!row) throw conflict('RELEASE_NOT_REQUESTED', 'La messa in vigore di questa bozza non è stata richiesta', { allowed_actions: ['richiedi'] });
    decideInTransaction(releaseMachine, { state: row.stato, action, actor, record: { richiesto_da: row.richiesto_da }, input: { motivazione }, messages: MESSAGES });
    throw conflict('RELEASE_NOT_REQUESTED', 'La messa in vigore di questa bozza non è in attesa', { allowed_actions: ['richiedi'] });
  }
  return releaseView(deps, codAzienda, user.username, draft.id);
}
