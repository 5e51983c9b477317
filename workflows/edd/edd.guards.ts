import { ApplicationFailure } from '@temporalio/workflow';
import { actionsFrom } from '../lib/machine';
import { EDD_FAILURES, type EddTransitionArgs, type EddWorkflowState } from './edd.contract';
import { eddMachine } from './edd.machine';

const refuse = (type: string, message: string, state: EddWorkflowState, action: string, extra: Record<string, unknown> = {}) =>
  ApplicationFailure.create({
    type, message, nonRetryable: true,
    details: [{ state: state.status, action, allowed_actions: actionsFrom(eddMachine, state.status), ...extra }],
  });

/**
 * What the machine cannot say about an EDD case: the step a transition names exists (and is
 * still open to complete), a new step's id is new, and a case goes to the supervisor only
 * when it has steps and every one of them is completed. Pure: the validator and the handler
 * both call it on the state they see. Returns the failure, or undefined when the step is fine.
 */
export function eddGuard(state: EddWorkflowState, args: EddTransitionArgs): ApplicationFailure | undefined {
  const stepOf = (id: string | undefined) => state.steps.find((s) => s.id === id);
  switch (args.action) {
    case 'aggiungi-step':
      if (stepOf(args.step?.id)) return refuse(EDD_FAILURES.stepExists, `step ${args.step?.id} already exists`, state, args.action);
      return undefined;
    case 'completa-step': {
      const step = stepOf(args.step_id);
      if (!step) return refuse(EDD_FAILURES.stepNotFound, `step ${args.step_id} not found in this case`, state, args.action);
      if (!step.open) return refuse(EDD_FAILURES.stepCompleted, `step ${args.step_id} is already completed`, state, args.action);
      return undefined;
    }
    case 'approva': {
      if (!state.steps.length) return refuse(EDD_FAILURES.noSteps, 'a case without steps cannot be submitted for approval', state, args.action);
      const open = state.steps.filter((s) => s.open).map((s) => s.id);
      if (open.length) return refuse(EDD_FAILURES.stepsOpen, `${open.length} step(s) still open`, state, args.action, { open_steps: open });
      return undefined;
    }
    default:
      return undefined;
  }
}
