import { ApplicationFailure, condition, continueAsNew, setHandler, uuid4 } from '@temporalio/workflow';
import type { createEddActivities } from '../../activities/edd/edd.activities';
import { transitionProjections } from '../lib/projections';
import { PROCESS_FAILURES, recordProcess } from '../lib/record-process';
import { transitionFailure } from '../lib/transition-failure';
import {
  createEddUpdate, EDD_FAILURES, EDD_RECORD_TYPE, eddStateQuery, eddTransitionUpdate, eddWorkflowId,
  type EddTransitionArgs, type EddWorkflowInput, type EddWorkflowState,
} from './edd.contract';
import { eddGuard } from './edd.guards';
import { eddMachine } from './edd.machine';

type EddActivities = ReturnType<typeof createEddActivities>;
const acts = transitionProjections<EddActivities>([EDD_FAILURES.notFound]);

/**
 * One durable workflow per EDD case. The machine and the EDD's own guards (edd.guards.ts)
 * decide every update in its validator and again in turn; the handler writes the projection
 * (case row, step row, audit event) and only then moves the state. No timers: the case waits
 * for people, and ends when it is closed.
 */
export async function eddWorkflow(input: EddWorkflowInput): Promise<EddWorkflowState> {
  const state: EddWorkflowState = input.state ?? { status: eddMachine.initial, created: false, transitions: 0, submittedBy: null, steps: [] };
  const p = recordProcess({
    machine: eddMachine, recordType: EDD_RECORD_TYPE, codAzienda: input.codAzienda, recordId: input.eddId, state,
    guards: () => ({ submitted_by: state.submittedBy }),
  });

  setHandler(eddStateQuery, () => state);

  p.onCreate(createEddUpdate, async (args) => {
    const record = await acts.createEddProjection({
      codAzienda: input.codAzienda, eddId: input.eddId, workflowId: eddWorkflowId(input.codAzienda, input.eddId), actor: args.actor, data: args.data,
    });
    state.steps = args.data.steps.map((s) => ({ id: s.id, open: true }));
    return { state, record };
  }, () => ({ state, record: null }));

  /** The machine first (state, role, four-eyes, required fields), then the EDD's own guards. */
  const decide = (args: EddTransitionArgs) => {
    const c = p.check(args.action, args.actor, { ...args });
    if (!c.ok) throw transitionFailure(c);
    const refused = eddGuard(state, args);
    if (refused) throw refused;
    return c.to;
  };

  setHandler(eddTransitionUpdate, (args) => p.serial(async () => {
    const to = decide(args);
    const from = state.status;
    const written = await p.commit(to, () => acts.projectEddTransition({
      codAzienda: input.codAzienda, eddId: input.eddId, transitionId: uuid4(), action: args.action, from, to, actor: args.actor,
      reason: args.reason, step: args.step, step_id: args.step_id, esito: args.esito, riferimento_evidenza: args.riferimento_evidenza,
    }));
    if (args.action === 'aggiungi-step' && args.step) state.steps.push({ id: args.step.id, open: true });
    if (args.action === 'completa-step') state.steps = state.steps.map((s) => (s.id === args.step_id ? { ...s, open: false } : s));
    if (args.action === 'approva') state.submittedBy = args.actor.id;
    if (args.action === 'respingi') state.submittedBy = null;
    return { state, record: written.record, step: written.step };
  }), {
    validator: (args) => {
      if (!state.created) {
        throw ApplicationFailure.create({ type: PROCESS_FAILURES.notCreated, message: 'record not created yet', nonRetryable: true, details: [{ state: state.status, action: args.action, allowed_actions: [] }] });
      }
      decide(args);
    },
  });

  await p.run((stop) => condition(stop), () => continueAsNew<typeof eddWorkflow>({ ...input, state }));
  return state;
}
