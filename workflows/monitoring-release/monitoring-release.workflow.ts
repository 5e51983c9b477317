import { condition, continueAsNew, setHandler } from '@temporalio/workflow';
import type { createMonitoringReleaseActivities } from '../../activities/monitoring-release/monitoring-release.activities';
import { transitionProjections } from '../lib/projections';
import { recordProcess } from '../lib/record-process';
import {
  createReleaseUpdate, MONITORING_RELEASE_RECORD_TYPE, RELEASE_FAILURES, releaseStateQuery, releaseTransitionUpdate, releaseWorkflowId,
  type ReleaseWorkflowInput, type ReleaseWorkflowState,
} from './monitoring-release.contract';
import { releaseMachine } from './monitoring-release.machine';

type Acts = ReturnType<typeof createMonitoringReleaseActivities>;
const acts = transitionProjections<Acts>(Object.values(RELEASE_FAILURES));

/**
 * The release of one draft: asked (create), then approved by a second person (the gates are checked
 * and the draft put in force in the approval's own transaction) or refused. A refusal of the gates
 * leaves the release waiting: the caller gets a 409 with the gates, and may approve again once a
 * backtest of the draft passes them.
 */
export async function monitoringReleaseWorkflow(input: ReleaseWorkflowInput): Promise<ReleaseWorkflowState> {
  const state: ReleaseWorkflowState = input.state ?? { status: releaseMachine.initial, created: false, transitions: 0, richiestoDa: null };
  const p = recordProcess({
    machine: releaseMachine, recordType: MONITORING_RELEASE_RECORD_TYPE, codAzienda: input.codAzienda, recordId: input.versionId, state,
    guards: () => ({ richiesto_da: state.richiestoDa }),
  });
  setHandler(releaseStateQuery, () => state);

  p.onCreate(createReleaseUpdate, async (args) => {
    const record = await acts.requestReleaseProjection({
      codAzienda: input.codAzienda, versionId: input.versionId, actor: args.actor, motivazione: args.motivazione ?? null,
      workflowId: releaseWorkflowId(input.codAzienda, input.versionId),
    });
    state.richiestoDa = args.actor.id;
    return { state, record };
  }, () => ({ state, record: null }));

  p.onTransition(releaseTransitionUpdate, async (args, to) => {
    const record = await p.commit(to, () => (args.action === 'approva'
      ? acts.approveReleaseProjection({ codAzienda: input.codAzienda, versionId: input.versionId, actor: args.actor, motivazione: args.motivazione ?? null })
      : acts.rejectReleaseProjection({ codAzienda: input.codAzienda, versionId: input.versionId, actor: args.actor, motivazione: args.motivazione ?? '' })));
    return { state, record };
  });

  // No timer: a release waits for its decision; the record ends it.
  await p.run(async (stop) => { await condition(stop); }, () => continueAsNew<typeof monitoringReleaseWorkflow>({ ...input, state }));
  return state;
}
