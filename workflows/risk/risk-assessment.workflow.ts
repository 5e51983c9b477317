import {
  allHandlersFinished, ApplicationFailure, condition, continueAsNew, ParentClosePolicy, proxyActivities, setHandler, startChild, uuid4,
} from '@temporalio/workflow';
import type { createRiskAssessmentActivities } from '../../activities/risk/risk-assessment.activities';
import { BACKGROUND_ACTIVITY } from '../lib/activity-options';
import type { MachineActor } from '../lib/machine';
import { transitionProjections } from '../lib/projections';
import { PROCESS_FAILURES, recordProcess } from '../lib/record-process';
import { transitionFailure } from '../lib/transition-failure';
import {
  createRiskAssessmentUpdate, RISK_ASSESSMENT_FAILURES, RISK_ASSESSMENT_RECORD_TYPE, RISK_ASSESSMENT_WORKFLOW_TYPE, RISK_SYSTEM_ACTOR,
  riskAssessmentStateQuery, riskAssessmentSupersededSignal, riskAssessmentTransitionUpdate, riskAssessmentWorkflowId,
  type RiskAssessmentNewData, type RiskAssessmentRecord, type RiskAssessmentReply, type RiskAssessmentTransitionArgs, type RiskAssessmentWorkflowInput, type RiskAssessmentWorkflowState, type RiskAssessmentWritten,
} from './risk-assessment.contract';
import { riskAssessmentMachine, type RiskAssessmentAction, type RiskAssessmentStatus } from './risk-assessment.machine';

type Acts = ReturnType<typeof createRiskAssessmentActivities>;
const OWN = Object.values(RISK_ASSESSMENT_FAILURES);
const acts = transitionProjections<Acts>(OWN);
// After the reply left nobody waits: the CDD consequences and the superseded workflows ride out an outage.
const background = proxyActivities<Acts>({ ...BACKGROUND_ACTIVITY, retry: { ...BACKGROUND_ACTIVITY.retry, nonRetryableErrorTypes: OWN } });

/**
 * One durable workflow per risk assessment (docs/risk-assessments.md). The create update writes
 * the draft, calculates it with the active rule set and, when the class does not go down,
 * releases it at once; the rest waits for people (override, its four-eyes confirmation, release,
 * archive). A released override with an expiry keeps a durable timer: when it fires the override
 * is marked expired and a new assessment starts, whose release supersedes this one. The workflow
 * ends when the assessment is archived (by hand or superseded).
 */
export async function riskAssessmentWorkflow(input: RiskAssessmentWorkflowInput): Promise<RiskAssessmentWorkflowState> {
  const state: RiskAssessmentWorkflowState = input.state ?? {
    status: riskAssessmentMachine.initial, created: false, transitions: 0, codAnagrafe: null, codValutazione: null,
    overrideBy: null, overrideExpiresAt: null, overrideExpired: false, pendingEffects: [],
  };
  const p = recordProcess({
    machine: riskAssessmentMachine, recordType: RISK_ASSESSMENT_RECORD_TYPE, codAzienda: input.codAzienda, recordId: input.assessmentId, state,
    guards: () => ({ override_by: state.overrideBy }),
  });
  const ref = { codAzienda: input.codAzienda, assessmentId: input.assessmentId };

  setHandler(riskAssessmentStateQuery, () => state);
  setHandler(riskAssessmentSupersededSignal, () => {
    // The superseding release archived the row in its own transaction: only the state follows.
    if (state.status === 'archived') return;
    state.status = 'archived';
    state.transitions++;
    p.publishStatus();
  });

  /** One transition's projection, then the state; a release queues its effects for after the reply. */
  async function step(action: RiskAssessmentAction, to: RiskAssessmentStatus, actor: MachineActor,
    args: Omit<RiskAssessmentTransitionArgs, 'actor' | 'action'> = {}, automatico = false): Promise<RiskAssessmentWritten> {
    const from = state.status;
    const written = await p.commit(to, () => acts.projectRiskAssessmentTransition({ ...ref, transitionId: uuid4(), action, from, to, actor, args, automatico }));
    if (action === 'override') {
      state.overrideBy = actor.id;
      state.overrideExpiresAt = args.scadenza_at ?? null;
      state.overrideExpired = false;
    }
    if (written.effects) state.pendingEffects.push(written.effects);
    return written;
  }

  /** Draft, calculation and (when the class does not go down) the system's release. */
  async function create(actor: MachineActor, data: RiskAssessmentNewData): Promise<RiskAssessmentRecord> {
    const created = await p.project(() => acts.createRiskAssessmentProjection({
      ...ref, workflowId: riskAssessmentWorkflowId(input.codAzienda, input.assessmentId), actor, data,
    }), 'create');
    state.created = true;
    state.codAnagrafe = created.cod_anagrafe;
    state.codValutazione = created.cod_valutazione;
    p.publishStatus();
    if (created.stato !== 'draft') {
      // A retried create after the calculation: the row already moved on.
      state.status = created.stato;
      return created;
    }
    const calculated = await step('calculate', 'completed', actor);
    if (!calculated.autoRelease) return calculated.record;
    return (await step('release', 'released', RISK_SYSTEM_ACTOR, {}, true)).record;
  }

  /** The create was refused for good (the customer is not there, or deleted): nothing will ever happen to this run. */
  let refused = false;
  const creating = async (actor: MachineActor, data: RiskAssessmentNewData) => {
    try {
      return await create(actor, data);
    } catch (err) {
      if (!state.created && err instanceof ApplicationFailure && OWN.includes(err.type as (typeof OWN)[number])) refused = true;
      throw err;
    }
  };

  setHandler(createRiskAssessmentUpdate, (args) => p.serial(async (): Promise<RiskAssessmentReply> => {
    if (state.created) return { state, record: null };
    return { state, record: await creating(args.actor, args.data) };
  }));

  setHandler(riskAssessmentTransitionUpdate, (args) => p.serial(async () => {
    const c = p.check(args.action, args.actor, { ...args });
    if (!c.ok) throw transitionFailure(c);
    const { action, actor, ...rest } = args;
    let written = await step(action, c.to, actor, rest);
    // The compliance officer's confirmation is the approval: the override applies at once (release policy).
    if (action === 'complete-override') written = await step('release', 'released', actor, {}, true);
    return { state, record: written.record };
  }), {
    validator: (args) => {
      if (!state.created) {
        throw ApplicationFailure.create({ type: PROCESS_FAILURES.notCreated, message: 'record not created yet', nonRetryable: true, details: [{ state: state.status, action: args.action, allowed_actions: [] }] });
      }
      if (args.action === 'calculate') {
        throw ApplicationFailure.create({ type: 'INVALID_TRANSITION', message: 'calculate is the workflow\'s own step', nonRetryable: true, details: [{ state: state.status, action: args.action, allowed_actions: [] }] });
      }
      const c = p.check(args.action, args.actor, { ...args });
      if (!c.ok) throw transitionFailure(c);
    },
  });

  if (input.autoStart && !state.created) {
    // Nobody would ever send the create update: a creation that failed for good ends the workflow (the next run or expiry starts another).
    await p.serial(async () => { if (!state.created) await creating(input.autoStart!.actor, input.autoStart!.data); }).catch(() => { if (!state.created) refused = true; });
  }
  await condition(() => state.created || refused);
  if (refused) {
    await condition(allHandlersFinished);
    return state;
  }

  const timerDue = () => state.status === 'released' && !!state.overrideExpiresAt && !state.overrideExpired;

  await p.run(async (stop) => {
    if (state.pendingEffects.length) {
      await background.applyRiskReleaseEffects(state.pendingEffects[0]!);
      state.pendingEffects.shift();
      return;
    }
    const wake = () => stop() || state.pendingEffects.length > 0 || !timerDue();
    if (!timerDue()) {
      await condition(() => stop() || state.pendingEffects.length > 0 || timerDue());
      return;
    }
    const ms = Math.max(1, Date.parse(state.overrideExpiresAt!) - Date.now());
    if (await condition(wake, ms)) return;
    await p.serial(async () => {
      if (!timerDue()) return;
      const expired = await background.expireRiskOverride({ ...ref });
      state.overrideExpired = true;
      // Archived meanwhile (superseded): nothing left to replace.
      if (!expired.inForce) return;
      const successor = uuid4();
      await startChild(RISK_ASSESSMENT_WORKFLOW_TYPE, {
        workflowId: riskAssessmentWorkflowId(input.codAzienda, successor),
        args: [{ codAzienda: input.codAzienda, assessmentId: successor, autoStart: { actor: RISK_SYSTEM_ACTOR, data: { cod_anagrafe: state.codAnagrafe!, motivo: 'scadenza_override', riferimento: state.codValutazione } } }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
      });
    });
  }, () => continueAsNew<typeof riskAssessmentWorkflow>({ ...input, autoStart: undefined, state }));
  // A release superseded at once (or archived right after) still owes its effects.
  while (state.pendingEffects.length) {
    await background.applyRiskReleaseEffects(state.pendingEffects[0]!);
    state.pendingEffects.shift();
  }
  return state;
}
