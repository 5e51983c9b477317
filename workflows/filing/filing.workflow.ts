import {
  ApplicationFailure, condition, continueAsNew, ParentClosePolicy, proxyActivities, setHandler, startChild, uuid4,
} from '@temporalio/workflow';
import { BACKGROUND_ACTIVITY, STEP_ACTIVITY } from '../lib/activity-options';
import { transitionProjections } from '../lib/projections';
import { recordProcess } from '../lib/record-process';
import { CEREMONY_TTL_MS, esignCompletedSignal, esignEndedSignal, esignWorkflowId, type EsignActivities, type EsignWorkflowInput } from '../esign/esign.contract';
import {
  createFilingUpdate, FILING_INVALID, FILING_NOT_FOUND, FILING_RECORD_TYPE, filingStateQuery, filingTransitionUpdate, filingWorkflowId,
  SIGNATURE_PENDING, type FilingActivities, type FilingProjection, type FilingTransitionArgs, type FilingWorkflowInput, type FilingWorkflowState,
} from './filing.contract';
import { filingDueAt, warnAt } from './filing.deadlines';
import { filingMachine, type FilingStatus } from './filing.machine';

const KNOWN = [FILING_NOT_FOUND, FILING_INVALID];
const acts = transitionProjections<FilingActivities>(KNOWN);
const esignActs = transitionProjections<EsignActivities>();
// Validation and rendering run the XML Schema validator: more time than a projection.
const steps = proxyActivities<FilingActivities>({ ...STEP_ACTIVITY, retry: { ...STEP_ACTIVITY.retry, nonRetryableErrorTypes: KNOWN } });
const background = proxyActivities<FilingActivities>({ ...BACKGROUND_ACTIVITY, retry: { ...BACKGROUND_ACTIVITY.retry, nonRetryableErrorTypes: [FILING_NOT_FOUND] } });

/** Once submitted, the deadline has been met: no more notices. */
const DEADLINE_MET: readonly FilingStatus[] = ['submitted', 'acknowledged', 'returned', 'archived'];

const refuse = (type: string, message: string, details: Record<string, unknown> = {}) =>
  ApplicationFailure.create({ type, message, nonRetryable: true, details: [details] });

/**
 * One durable workflow per filing. The machine decides every transition; validation and
 * rendering refuse with the findings (the state stays); sign starts the e-signature ceremony
 * as a child, whose signals tell this workflow how it ended. The deadline of the filing's type
 * raises a notice before it runs out and another when it has.
 */
export async function filingWorkflow(input: FilingWorkflowInput): Promise<FilingWorkflowState> {
  const state: FilingWorkflowState = input.state ?? {
    status: filingMachine.initial, created: false, transitions: 0, tipo: input.tipo, periodo: input.periodo ?? null,
    dueAt: filingDueAt(input.tipo, input.periodo, input.createdAt), warned: false, overdue: false, preparedBy: null, ceremony: null,
  };
  const wfId = filingWorkflowId(input.codAzienda, input.filingId);
  const p = recordProcess({
    machine: filingMachine, recordType: FILING_RECORD_TYPE, codAzienda: input.codAzienda, recordId: input.filingId, state,
    guards: () => ({ prepared_by: state.preparedBy }),
  });
  setHandler(filingStateQuery, () => state);

  p.onCreate(createFilingUpdate, async (args) => ({
    state,
    record: await acts.createFilingProjection({ codAzienda: input.codAzienda, filingId: input.filingId, workflowId: wfId, actor: args.actor, data: args.data, dueAt: state.dueAt }),
  }), () => ({ state, record: null }));

  const projection = (args: FilingTransitionArgs, to: FilingStatus): FilingProjection => {
    const { actor, action, ...rest } = args;
    return { codAzienda: input.codAzienda, filingId: input.filingId, transitionId: uuid4(), actor, action, from: state.status, to, args: rest, dueAt: state.dueAt };
  };

  p.onTransition(filingTransitionUpdate, async (args, defaultTo) => {
    const to: FilingStatus = args.action === 'import-return' && args.returnFile?.outcome === 'returned' ? 'returned' : defaultTo;
    const proj = projection(args, to);
    // A classification may change the type or the month: the row gets the deadline it leads to.
    const nextDue = args.action === 'classify' && args.tipo ? filingDueAt(args.tipo, args.periodo ?? state.periodo, input.createdAt) : state.dueAt;
    proj.dueAt = nextDue;
    switch (args.action) {
      case 'validate':
      case 'render-package': {
        const check = await p.project(() => (args.action === 'validate' ? steps.checkFilingContent(proj) : steps.renderFilingPackage(proj)), args.action);
        if (!check.valid) throw refuse(FILING_INVALID, `${args.action}: the content has ${check.findings.length} error(s)`, { findings: check.findings });
        return { state, record: await p.commit(to, async () => check.record) };
      }
      case 'sign': {
        if (state.status === 'signing' && state.ceremony?.status !== 'ended') {
          throw refuse(SIGNATURE_PENDING, 'a signing ceremony is already under way', { ceremony_id: state.ceremony?.id ?? null });
        }
        const prepared = await acts.prepareFilingSigning({ ...proj, args: { ...proj.args } });
        const expiresAt = new Date(Date.now() + CEREMONY_TTL_MS).toISOString();
        const childId = esignWorkflowId(input.codAzienda, prepared.ceremonyId);
        // The ceremony's row first, so the signing link answers as soon as this update does.
        await esignActs.createEsignProjection({ codAzienda: input.codAzienda, ceremonyId: prepared.ceremonyId, workflowId: childId, actor: args.actor, data: prepared.create.data, expiresAt });
        const childInput: EsignWorkflowInput = { codAzienda: input.codAzienda, ceremonyId: prepared.ceremonyId, parentWorkflowId: wfId, expiresAt, create: prepared.create };
        await startChild('esignCeremonyWorkflow', { workflowId: childId, args: [childInput], parentClosePolicy: ParentClosePolicy.ABANDON });
        state.ceremony = { id: prepared.ceremonyId, status: 'active' };
        const record = await p.commit(to, () => acts.projectFilingTransition({ ...proj, args: { ...proj.args, ceremonyId: prepared.ceremonyId } }));
        return { state, record };
      }
      case 'complete-signing':
        if (state.ceremony?.status !== 'signed') throw refuse(SIGNATURE_PENDING, 'the signing ceremony is not signed yet', { ceremony: state.ceremony });
        break;
      default:
        break;
    }
    const record = await p.commit(to, () => acts.projectFilingTransition(proj));
    if (args.action === 'submit-for-approval') state.preparedBy = args.actor.id;
    if (args.action === 'reject') state.preparedBy = null;
    if (args.action === 'classify' && args.tipo) {
      state.tipo = args.tipo; state.periodo = args.periodo ?? state.periodo;
      if (nextDue !== state.dueAt) { state.dueAt = nextDue; state.warned = false; state.overdue = false; }
    }
    return { state, record };
  });

  const ceremonyEnded = (ceremonyId: string, status: 'signed' | 'ended') => {
    if (state.ceremony?.id === ceremonyId && state.ceremony.status === 'active') state.ceremony = { id: ceremonyId, status };
  };
  setHandler(esignCompletedSignal, (s) => ceremonyEnded(s.ceremonyId, 'signed'));
  setHandler(esignEndedSignal, (s) => ceremonyEnded(s.ceremonyId, 'ended'));

  const deadlineOpen = () => state.dueAt !== null && !DEADLINE_MET.includes(state.status) && !state.overdue;
  await p.run(async (stop) => {
    const due = state.dueAt;
    const open = deadlineOpen();
    const changed = () => stop() || state.dueAt !== due || deadlineOpen() !== open;
    if (!open || !due) { await condition(changed); return; }
    const target = state.warned ? due : warnAt(due);
    const remaining = Date.parse(target) - Date.now();
    if (remaining > 0 && await condition(changed, remaining)) return;
    if (changed()) return;
    const kind = state.warned ? 'overdue' : 'due_soon';
    await background.noticeFilingDeadline({ codAzienda: input.codAzienda, filingId: input.filingId, dueAt: due, kind });
    if (kind === 'due_soon') state.warned = true; else state.overdue = true;
  }, () => continueAsNew<typeof filingWorkflow>({ ...input, state }));
  return state;
}
