import { WorkflowNotFoundError, type ApplicationFailure } from '@temporalio/client';
import type { Knex } from 'knex';
import { recordSearchAttributes } from '../../../../temporal/search-attributes';
import {
  createRiskAssessmentUpdate, normaliseAssessmentRow, RISK_ASSESSMENT_FAILURES, RISK_ASSESSMENT_RECORD_TYPE, RISK_ASSESSMENT_WORKFLOW_TYPE,
  riskAssessmentTransitionUpdate, riskAssessmentWorkflowId,
  type RiskAssessmentRecord, type RiskAssessmentTransitionArgs, type RiskAssessmentWorkflowInput, type RiskClass, type RiskMotivo,
} from '../../../../workflows/risk/risk-assessment.contract';
import { riskAssessmentMachine, RISK_ASSESSMENT_USER_ACTIONS, type RiskAssessmentUserAction } from '../../../../workflows/risk/risk-assessment.machine';
import { allowedActions, isFinal, type MachineActor } from '../../../../workflows/lib/machine';
import type { Deps } from '../../../deps';
import type { SessionUser } from '../../../http/context';
import { staffActor } from '../../../kit/actor';
import { withTenant } from '../../../db/tenant';
import { conflict, notFound, ValidationError, type HttpError } from '../../../http/errors';
import { decideInTransaction, executeUpdate, startRecordWorkflow, startWithUpdate, type ProcessClient, type RejectionMessages, type UpdateErrorMapping } from '../../../kit/process';
import { newRecordId } from '../../../kit/request-context';
import { todayInRome } from '../../records';
import { REJECTION_MESSAGES } from './assessment.labels';
import { getAssessment, type AssessmentRow } from './assessment.repo';

/**
 * What starts and moves assessments: the API, the pages (part VIEWS), the risk events sweep.
 * Either the web process's deps (the Temporal client provider) or a client at hand (an activity).
 */
export type AssessmentDeps = { db: Knex } & ({ temporal: Deps['temporal'] } | ProcessClient);

async function processClient(deps: AssessmentDeps): Promise<ProcessClient> {
  if ('client' in deps) return { client: deps.client, taskQueue: deps.taskQueue };
  return { client: await deps.temporal.get(), taskQueue: deps.temporal.taskQueue };
}

const MESSAGES: RejectionMessages = { ...REJECTION_MESSAGES };

function ownFailure(type: string, _f?: ApplicationFailure): HttpError | undefined {
  switch (type) {
    case RISK_ASSESSMENT_FAILURES.customerNotFound: return new ValidationError([{ path: 'cod_anagrafe', message: 'Cliente non trovato in anagrafe' }]);
    case RISK_ASSESSMENT_FAILURES.customerDeleted: return conflict('CUSTOMER_DELETED', 'Il cliente è stato eliminato: non si valuta più il suo rischio');
    case RISK_ASSESSMENT_FAILURES.notFound: return notFound('Valutazione', 'f');
    case RISK_ASSESSMENT_FAILURES.superseded: return conflict('INVALID_TRANSITION', 'La valutazione è stata superata da una più recente ed è archiviata', { state: 'archived', allowed_actions: [] });
    default: return undefined;
  }
}
const MAPPING: UpdateErrorMapping = { messages: MESSAGES, failures: ownFailure };

const tx = (deps: AssessmentDeps, codAzienda: string, actor: string) => <T>(fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(deps.db, { codAzienda, actor }, fn);

// A stable uuid for a key (an event, a case opened from an assessment): the same key, the same record.
export { uuidFromKey } from '../../../kit/ids';

export interface StartAssessmentRequest {
  codAzienda: string;
  actor: MachineActor;
  codAnagrafe: string;
  motivo: RiskMotivo;
  riferimento?: string | null;
  /** Chosen by the caller for an event (the same event, the same assessment); default a new id (the request's Idempotency-Key). */
  assessmentId?: string;
}

/**
 * Starts an assessment of one customer and answers it once calculated (and, when the class does
 * not go down, released). A repeated start with the same id answers the same assessment.
 */
export async function startAssessment(deps: AssessmentDeps, r: StartAssessmentRequest): Promise<AssessmentRow> {
  // Checked before any workflow starts: a customer that is not the tenant's (or deleted) leaves nothing behind.
  const customer = await tx(deps, r.codAzienda, r.actor.username)((trx) => trx('anagrafe').where({ cod_azienda: r.codAzienda, cod_anagrafe: r.codAnagrafe }).first('stato'));
  if (!customer) throw ownFailure(RISK_ASSESSMENT_FAILURES.customerNotFound)!;
  if (customer.stato === 'eliminato') throw ownFailure(RISK_ASSESSMENT_FAILURES.customerDeleted)!;
  const assessmentId = r.assessmentId ?? newRecordId();
  const input: RiskAssessmentWorkflowInput = { codAzienda: r.codAzienda, assessmentId };
  const reply = await startWithUpdate(await processClient(deps), {
    workflowType: RISK_ASSESSMENT_WORKFLOW_TYPE, workflowId: riskAssessmentWorkflowId(r.codAzienda, assessmentId), input,
    searchAttributes: recordSearchAttributes({ codAzienda: r.codAzienda, recordType: RISK_ASSESSMENT_RECORD_TYPE, recordId: assessmentId, status: riskAssessmentMachine.initial }),
    update: createRiskAssessmentUpdate, args: [{ actor: r.actor, data: { cod_anagrafe: r.codAnagrafe, motivo: r.motivo, riferimento: r.riferimento ?? null } }], map: MAPPING,
  });
  if (reply.record) return normaliseAssessmentRow(reply.record);
  // A repeated create answers without the row: read it.
  const row = await tx(deps, r.codAzienda, r.actor.username)((trx) => getAssessment(trx, r.codAzienda, assessmentId));
  if (!row) throw notFound('Valutazione', 'f');
  return row;
}

/**
 * Starts an assessment without waiting for it: the workflow creates and calculates itself
 * (`autoStart`), as the worker's slots allow. For the portfolio recalculation, which starts
 * hundreds at once and must not hold each start until its calculation is done: waiting made
 * starts time out on a loaded machine and be counted as failed while they went on. The id is
 * the caller's, so a repeated start joins the same workflow. A customer gone meanwhile ends
 * the workflow with nothing written.
 */
export async function queueAssessment(deps: AssessmentDeps, r: Omit<StartAssessmentRequest, 'assessmentId'> & { assessmentId: string }): Promise<void> {
  const input: RiskAssessmentWorkflowInput = {
    codAzienda: r.codAzienda, assessmentId: r.assessmentId,
    autoStart: { actor: r.actor, data: { cod_anagrafe: r.codAnagrafe, motivo: r.motivo, riferimento: r.riferimento ?? null } },
  };
  await startRecordWorkflow(await processClient(deps), {
    workflowType: RISK_ASSESSMENT_WORKFLOW_TYPE, workflowId: riskAssessmentWorkflowId(r.codAzienda, r.assessmentId), input, map: MAPPING,
    searchAttributes: recordSearchAttributes({ codAzienda: r.codAzienda, recordType: RISK_ASSESSMENT_RECORD_TYPE, recordId: r.assessmentId, status: riskAssessmentMachine.initial }),
  });
}

/** The actions this user may take on the assessment now (state, role, four-eyes): the page's buttons. */
export function assessmentAllowedActions(row: Pick<AssessmentRow, 'stato' | 'override_by'>, user: MachineActor | SessionUser): RiskAssessmentUserAction[] {
  const actor = 'cod_utente' in user ? staffActor(user) : user;
  return allowedActions(riskAssessmentMachine, row.stato, actor, { override_by: row.override_by })
    .filter((a): a is RiskAssessmentUserAction => (RISK_ASSESSMENT_USER_ACTIONS as readonly string[]).includes(a));
}

export interface TransitionInput {
  /** override */
  classe?: RiskClass;
  motivo?: string;
  /** override: the day the override stops applying (yyyy-mm-dd), after today. */
  scadenza?: string | null;
  /** release, archive */
  nota?: string | null;
}

/** Midnight in Rome at the start of a day, as an instant: when an override with that expiry stops applying. */
export function romeMidnight(day: string): Date {
  const utc = Date.parse(`${day}T00:00:00Z`);
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Rome', hour: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(utc));
  const romeHour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  return new Date(utc - romeHour * 3_600_000);
}

/**
 * Sends one person's action to the assessment's workflow; its validator is the authority
 * (409 with the allowed actions, 403 for a role or for four-eyes). An archived assessment
 * (workflow ended) is answered from its row.
 */
export async function transitionAssessment(deps: AssessmentDeps, p: {
  codAzienda: string; actor: MachineActor; codValutazione: string; azione: RiskAssessmentUserAction; input: TransitionInput;
}): Promise<AssessmentRow> {
  const row = await tx(deps, p.codAzienda, p.actor.username)((trx) => getAssessment(trx, p.codAzienda, p.codValutazione));
  if (!row) throw notFound('Valutazione', 'f');
  const args: Omit<RiskAssessmentTransitionArgs, 'actor'> = { action: p.azione };
  if (p.azione === 'override') {
    if (p.input.scadenza && p.input.scadenza <= todayInRome()) {
      throw new ValidationError([{ path: 'scadenza', message: 'La scadenza della modifica deve essere una data futura' }]);
    }
    Object.assign(args, {
      classe: p.input.classe, motivo: p.input.motivo?.trim(), scadenza: p.input.scadenza || null,
      scadenza_at: p.input.scadenza ? romeMidnight(p.input.scadenza).toISOString() : null,
    });
  }
  if (p.input.nota) args.nota = p.input.nota;
  try {
    const reply = await executeUpdate(await processClient(deps), row.workflow_id, riskAssessmentTransitionUpdate, [{ ...args, actor: p.actor }], MAPPING);
    return normaliseAssessmentRow(reply.record as RiskAssessmentRecord);
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    if (isFinal(riskAssessmentMachine, row.stato)) {
      decideInTransaction(riskAssessmentMachine, { state: row.stato, action: p.azione, actor: p.actor, record: { override_by: row.override_by }, input: { ...args }, messages: MESSAGES });
    }
    throw err;
  }
}
