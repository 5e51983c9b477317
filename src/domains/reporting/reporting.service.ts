import type { ApplicationFailure } from '@temporalio/client';
import type { Knex } from 'knex';
import { recordSearchAttributes } from '../../../temporal/search-attributes';
import {
  createReportUpdate, monthsBetween, REPORT_RECORD_TYPE, REPORT_WORKFLOW_TYPE, reportTransitionUpdate, reportWorkflowId, SUBMISSION_NOT_PENDING,
  type ReportRecord, type ReportReply, type ReportTransitionArgs, type ReportWorkflowInput,
} from '../../../workflows/reporting/reporting.contract';
import { reportMachine } from '../../../workflows/reporting/reporting.machine';
import { allowedActions, isFinal } from '../../../workflows/lib/machine';
import type { Deps } from '../../deps';
import { withTenant } from '../../db/tenant';
import type { SessionUser } from '../../http/context';
import { conflict, notFound, type HttpError } from '../../http/errors';
import { staffActor } from '../../kit/actor';
import { decideInTransaction, executeUpdate, startWithUpdate, type ProcessClient, type RejectionMessages } from '../../kit/process';
import { newRecordId } from '../../kit/request-context';
import { getReport, liveReports, reportSubmissions, type SubmissionRow } from './reporting.repo';
import type { GenerateInput } from './reporting.schemas';

const MESSAGES: RejectionMessages = { FOUR_EYES_REQUIRED: 'La segnalazione deve essere approvata da un utente diverso da chi ne ha chiesto la generazione' };

export const reportTx = (deps: Deps, codAzienda: string, user: SessionUser) => <T>(fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(deps.db, { codAzienda, actor: user.username }, fn);

const pc = async (deps: Deps): Promise<ProcessClient> => ({ client: await deps.temporal.get(), taskQueue: deps.temporal.taskQueue });

/** The report or 404: another tenant's is invisible under row-level security, so "not found" too. */
export async function requireReport(deps: Deps, codAzienda: string, user: SessionUser, id: string): Promise<ReportRecord> {
  const row = await reportTx(deps, codAzienda, user)((trx) => getReport(trx, id));
  if (!row) throw notFound('Segnalazione');
  return row;
}

export const allowedFor = (row: ReportRecord, user: SessionUser) => allowedActions(reportMachine, row.stato, staffActor(user), { generated_by: row.generated_by });

export const reportView = (row: ReportRecord, user: SessionUser, submissions: SubmissionRow[]) => ({ ...row, allowed_actions: allowedFor(row, user), submissions });

function failures(type: string, failure: ApplicationFailure): HttpError | undefined {
  if (type !== SUBMISSION_NOT_PENDING) return undefined;
  const d = (failure.details?.[0] ?? {}) as { pending?: string | null };
  return conflict(SUBMISSION_NOT_PENDING, 'L\'invio indicato non è quello in attesa di esito', { pending_submission: d.pending ?? null, allowed_actions: ['complete-submission'] });
}

/**
 * One report per month of the request, each a durable workflow that generates it from the
 * movements. A month that already has a live report of the type is a 409 naming it, and
 * nothing starts.
 */
export async function generateReports(deps: Deps, codAzienda: string, user: SessionUser, input: GenerateInput) {
  const months = monthsBetween((input.periodo ?? input.dal)!, (input.periodo ?? input.al ?? input.dal)!);
  const existing = await reportTx(deps, codAzienda, user)((trx) => liveReports(trx, input.tipo, months));
  if (existing.length) {
    throw conflict('REPORT_EXISTS', `Esiste già una segnalazione per ${existing.map((e) => e.periodo).sort().join(', ')}`, { existing });
  }
  const client = await pc(deps);
  const actor = staffActor(user);
  const items: ReportRecord[] = [];
  for (const periodo of months) {
    const reportId = newRecordId();
    const input2: ReportWorkflowInput = { codAzienda, reportId, tipo: input.tipo, periodo };
    const reply = await startWithUpdate(client, {
      workflowType: REPORT_WORKFLOW_TYPE, workflowId: reportWorkflowId(codAzienda, reportId), input: input2,
      searchAttributes: recordSearchAttributes({ codAzienda, recordType: REPORT_RECORD_TYPE, recordId: reportId, status: reportMachine.initial }),
      update: createReportUpdate, args: [{ actor }], map: { failures },
    });
    items.push((reply.record as ReportRecord | null) ?? await requireReport(deps, codAzienda, user, reportId));
  }
  return items;
}

/**
 * One transition, decided by the report's workflow. Only when no workflow runs (a completed or
 * failed report whose workflow ended) is the row read, for the 409.
 */
export async function transitionReport(deps: Deps, codAzienda: string, user: SessionUser, id: string, args: Omit<ReportTransitionArgs, 'actor'>) {
  const row = await requireReport(deps, codAzienda, user, id);
  const actor = staffActor(user);
  const notRunning = () => {
    decideInTransaction(reportMachine, { state: row.stato, action: args.action, actor, record: { generated_by: row.generated_by }, input: { ...args }, messages: MESSAGES });
    return notFound('Segnalazione');
  };
  // A final report's workflow has ended: the machine answers from the row.
  if (isFinal(reportMachine, row.stato)) throw notRunning();
  const reply: ReportReply = await executeUpdate(await pc(deps), reportWorkflowId(codAzienda, id), reportTransitionUpdate, [{ ...args, actor }], { messages: MESSAGES, failures, notRunning });
  const record = reply.record ?? await requireReport(deps, codAzienda, user, id);
  return reportView(record, user, await reportTx(deps, codAzienda, user)((trx) => reportSubmissions(trx, id)));
}

export async function reportDetail(deps: Deps, codAzienda: string, user: SessionUser, id: string) {
  return reportTx(deps, codAzienda, user)(async (trx) => {
    const row = await getReport(trx, id);
    if (!row) throw notFound('Segnalazione');
    return reportView(row, user, await reportSubmissions(trx, id));
  });
}
