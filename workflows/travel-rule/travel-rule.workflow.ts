import { ApplicationFailure, allHandlersFinished, condition, continueAsNew, proxyActivities, setHandler, uuid4 } from '@temporalio/workflow';
import type { createTravelRuleActivities } from '../../activities/travel-rule/travel-rule.activities';
import { STEP_ACTIVITY } from '../lib/activity-options';
import type { MachineActor } from '../lib/machine';
import { transitionProjections } from '../lib/projections';
import { PROCESS_FAILURES, recordProcess } from '../lib/record-process';
import { transitionFailure } from '../lib/transition-failure';
import {
  createTravelRuleUpdate, TRAVEL_RULE_FAILURES, TRAVEL_RULE_HOLD_DAYS, TRAVEL_RULE_RECORD_TYPE, TRAVEL_RULE_SYSTEM_ACTOR, travelRuleStateQuery,
  travelRuleTransitionUpdate, travelRuleWorkflowId,
  type TravelRuleProjection, type TravelRuleRecord, type TravelRuleReply, type TravelRuleWorkflowInput, type TravelRuleWorkflowState,
} from './travel-rule.contract';
import { travelRuleMachine, type TravelRuleAction, type TravelRuleStatus } from './travel-rule.machine';

type Acts = ReturnType<typeof createTravelRuleActivities>;
const OWN = Object.values(TRAVEL_RULE_FAILURES);
const acts = transitionProjections<Acts>(OWN);
// Screening reads the sanctions lists (built in memory on first use): more time per attempt, still few attempts.
const screening = proxyActivities<Acts>({ ...STEP_ACTIVITY, retry: { ...STEP_ACTIVITY.retry, nonRetryableErrorTypes: OWN } });
const DAY_MS = 86_400_000;

/**
 * One durable workflow per travel-rule transfer (docs/travel-rule.md). The create update records
 * the transfer (received); screen checks names and addresses and evaluates the rules; a person
 * decides (approve, hold, return, reject: the projection refuses a decision laxer than the rules
 * allow). A held transfer waits for the missing data: `complete` records it and the workflow
 * screens again at once, so the transfer can be decided again; when TRAVEL_RULE_HOLD_DAYS pass
 * first, the platform returns it (incoming) or rejects it (outgoing). Bad input never loops: it is
 * refused before the workflow starts, and the projections' data refusals are non-retryable.
 */
export async function travelRuleWorkflow(input: TravelRuleWorkflowInput): Promise<TravelRuleWorkflowState> {
  const state: TravelRuleWorkflowState = input.state ?? {
    status: travelRuleMachine.initial, created: false, refused: false, transitions: 0, codTransazione: null, direzione: null, heldUntil: null,
  };
  const p = recordProcess({ machine: travelRuleMachine, recordType: TRAVEL_RULE_RECORD_TYPE, codAzienda: input.codAzienda, recordId: input.transferId, state });
  const ref = { codAzienda: input.codAzienda, transferId: input.transferId };

  setHandler(travelRuleStateQuery, () => state);

  /** One transition's projection, then the state. */
  async function step(action: TravelRuleAction, to: TravelRuleStatus, actor: MachineActor, extra: Partial<TravelRuleProjection> = {}): Promise<TravelRuleRecord> {
    const projection: TravelRuleProjection = { ...ref, transitionId: uuid4(), action, from: state.status, to, actor, ...extra };
    const record = await p.commit(to, () => (action === 'screen' ? screening.screenTravelRule(projection)
      : action === 'complete' ? acts.completeTravelRule(projection) : acts.decideTravelRule(projection)));
    state.heldUntil = to === 'held' ? new Date(Date.now() + TRAVEL_RULE_HOLD_DAYS * DAY_MS).toISOString() : null;
    return record;
  }

  setHandler(createTravelRuleUpdate, (args) => p.serial(async (): Promise<TravelRuleReply> => {
    if (state.created || state.refused) return { state, record: null };
    try {
      const record = await p.project(() => acts.createTravelRuleProjection({
        ...ref, workflowId: travelRuleWorkflowId(input.codAzienda, input.transferId), actor: args.actor, data: args.data,
      }), 'create');
      state.created = true;
      state.codTransazione = record.cod_transazione;
      state.direzione = record.direzione;
      // A retried create after later steps (a new run of a closed workflow): the row has moved on.
      state.status = record.stato;
      p.publishStatus();
      return { state, record };
    } catch (err) {
      if (err instanceof ApplicationFailure && (OWN.includes(err.type as (typeof OWN)[number]) || err.type === PROCESS_FAILURES.invalidData)) state.refused = true;
      throw err;
    }
  }));

  setHandler(travelRuleTransitionUpdate, (args) => p.serial(async (): Promise<TravelRuleReply> => {
    const c = p.check(args.action, args.actor, { ...args });
    if (!c.ok) throw transitionFailure(c);
    const { action, actor, ...rest } = args;
    let record = await step(action, c.to, actor, rest);
    // The missing data is in: screen it again at once, so the transfer can be decided again.
    if (action === 'complete') {
      try {
        record = await step('screen', 'screened', actor);
      } catch (err) {
        // The data is recorded (received); the screening can be asked for again by hand.
        if (!(err instanceof ApplicationFailure)) throw err;
      }
    }
    return { state, record };
  }), {
    validator: (args) => {
      if (!state.created) {
        throw ApplicationFailure.create({ type: PROCESS_FAILURES.notCreated, message: 'record not created yet', nonRetryable: true, details: [{ state: state.status, action: args.action, allowed_actions: [] }] });
      }
      const c = p.check(args.action, args.actor, { ...args });
      if (!c.ok) throw transitionFailure(c);
    },
  });

  await condition(() => state.created || state.refused);
  if (state.refused) {
    await condition(allHandlersFinished);
    return state;
  }

  const waiting = () => state.status === 'held' && !!state.heldUntil;
  await p.run(async (stop) => {
    if (!waiting()) {
      await condition(() => stop() || waiting());
      return;
    }
    const until = state.heldUntil!;
    const ms = Math.max(1, Date.parse(until) - Date.now());
    if (await condition(() => stop() || state.heldUntil !== until, ms)) return;
    const outcome = await p.serial(async (): Promise<'done' | 'retry'> => {
      if (state.status !== 'held' || state.heldUntil !== until) return 'done';
      // Art. 17(1): without the information the transfer is returned (incoming) or not executed (outgoing).
      const action = state.direzione === 'in_entrata' ? 'return' : 'reject';
      const c = p.check(action, TRAVEL_RULE_SYSTEM_ACTOR, { motivo: 'termine' });
      if (!c.ok) return 'done';
      try {
        await step(action, c.to, TRAVEL_RULE_SYSTEM_ACTOR, {
          automatico: true,
          motivo: `Informazioni mancanti non ricevute entro ${TRAVEL_RULE_HOLD_DAYS} giorni dalla sospensione (art. 17 Reg. (UE) 2023/1113)`,
        });
        return 'done';
      } catch (err) {
        // The database was unavailable: try again shortly. Refused for good (its data): a person decides, the timer stops.
        if (err instanceof ApplicationFailure && err.type === PROCESS_FAILURES.projectionFailed) return 'retry';
        state.heldUntil = null;
        return 'done';
      }
    });
    if (outcome === 'retry') await condition(() => stop() || state.heldUntil !== until, 60_000);
  }, () => continueAsNew<typeof travelRuleWorkflow>({ ...input, state }));
  return state;
}
