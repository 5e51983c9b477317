import { ApplicationFailure, condition, continueAsNew, proxyActivities, setHandler, uuid4 } from '@temporalio/workflow';
import { BACKGROUND_ACTIVITY } from '../lib/activity-options';
import { transitionProjections } from '../lib/projections';
import { recordProcess } from '../lib/record-process';
import {
  createReportUpdate, REPORT_NOT_FOUND, REPORT_RECORD_TYPE, reportDueAt, reportStateQuery, reportTransitionUpdate, reportWorkflowId,
  SUBMISSION_NOT_PENDING, type ReportActivities, type ReportWorkflowInput, type ReportWorkflowState,
} from './reporting.contract';
import { reportMachine, type ReportStatus } from './reporting.machine';
import { warnInstant } from './rules/period';

const KNOWN = [REPORT_NOT_FOUND, SUBMISSION_NOT_PENDING];
const acts = transitionProjections<ReportActivities>(KNOWN);
const background = proxyActivities<ReportActivities>({ ...BACKGROUND_ACTIVITY, retry: { ...BACKGROUND_ACTIVITY.retry, nonRetryableErrorTypes: [REPORT_NOT_FOUND] } });
/**
 * Reading a month of movements: minutes on a large tenant. The activity heartbeats at each phase
 * (a phase is one statement), so a worker that dies is noticed in five minutes, not thirty.
 */
const generation = proxyActivities<ReportActivities>({
  startToCloseTimeout: '30 minutes', heartbeatTimeout: '5 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 3, nonRetryableErrorTypes: [REPORT_NOT_FOUND] },
});

/** Once submitted, the deadline has been met (a rejected submission brings the report back to approved: it runs again). */
const DEADLINE_MET: readonly ReportStatus[] = ['submitted', 'completed', 'failed'];

/**
 * One durable workflow per regulatory report (docs/reporting.md). It generates the report from
 * the stored movements first (progress on the row), then waits for the people: approval by a
 * second user, submission, the outcome of each submission. The deadline of the report's type
 * raises a notice five days before it runs out and another when it has.
 */
export async function reportingWorkflow(input: ReportWorkflowInput): Promise<ReportWorkflowState> {
  const state: ReportWorkflowState = input.state ?? {
    status: reportMachine.initial, created: false, transitions: 0, generatedBy: null, generator: null,
    dueAt: reportDueAt(input.tipo, input.periodo), warned: false, overdue: false, pendingSubmission: null,
  };
  const wfId = reportWorkflowId(input.codAzienda, input.reportId);
  const p = recordProcess({
    machine: reportMachine, recordType: REPORT_RECORD_TYPE, codAzienda: input.codAzienda, recordId: input.reportId, state,
    guards: () => ({ generated_by: state.generatedBy }),
  });
  setHandler(reportStateQuery, () => state);

  p.onCreate(createReportUpdate, async (args) => {
    const record = await acts.createReportProjection({
      codAzienda: input.codAzienda, reportId: input.reportId, workflowId: wfId, actor: args.actor, tipo: input.tipo, periodo: input.periodo, dueAt: state.dueAt,
    });
    state.generatedBy = args.actor.id;
    state.generator = args.actor;
    return { state, record };
  }, () => ({ state, record: null }));

  p.onTransition(reportTransitionUpdate, async (args, defaultTo) => {
    const { actor, action, ...rest } = args;
    let to: ReportStatus = defaultTo;
    if (action === 'complete-submission') {
      if (!state.pendingSubmission || rest.submissionId !== state.pendingSubmission) {
        throw ApplicationFailure.create({
          type: SUBMISSION_NOT_PENDING, nonRetryable: true, message: 'the submission is not the one waiting for its outcome',
          details: [{ pending: state.pendingSubmission, allowed_actions: ['complete-submission'] }],
        });
      }
      to = rest.esito === 'scartata' ? 'approved' : 'completed';
    }
    const submissionId = action === 'submit' ? uuid4() : rest.submissionId;
    const record = await p.commit(to, () => acts.projectReportTransition({
      codAzienda: input.codAzienda, reportId: input.reportId, transitionId: uuid4(), actor, action, from: state.status, to,
      args: { ...rest, ...(submissionId ? { submissionId } : {}) },
    }));
    if (action === 'submit') state.pendingSubmission = submissionId ?? null;
    if (action === 'complete-submission') state.pendingSubmission = null;
    return { state, record };
  });

  await condition(() => state.created);
  if (state.status === 'generating' && state.generator) {
    const gen = { codAzienda: input.codAzienda, reportId: input.reportId, actor: state.generator };
    let error: string | undefined;
    try {
      await generation.generateReport(gen);
    } catch (err) {
      error = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    }
    await p.commit(error === undefined ? 'generated' : 'failed', () => background.finishReportGeneration({ ...gen, ok: error === undefined, ...(error ? { error } : {}) }));
  }

  const deadlineOpen = () => !DEADLINE_MET.includes(state.status) && !state.overdue;
  await p.run(async (stop) => {
    const open = deadlineOpen();
    const changed = () => stop() || deadlineOpen() !== open;
    if (!open) { await condition(changed); return; }
    const due = state.dueAt;
    // A month reported after its due date (history generated late) is overdue at once: one notice, not two.
    if (!state.warned && Date.now() >= Date.parse(due)) state.warned = true;
    const target = state.warned ? due : warnInstant(due);
    const remaining = Date.parse(target) - Date.now();
    if (remaining > 0 && await condition(changed, remaining)) return;
    if (changed()) return;
    const kind = state.warned ? 'overdue' : 'due_soon';
    await background.noticeReportDeadline({ codAzienda: input.codAzienda, reportId: input.reportId, dueAt: due, kind });
    if (kind === 'due_soon') state.warned = true; else state.overdue = true;
  }, () => continueAsNew<typeof reportingWorkflow>({ ...input, state }));
  return state;
}
