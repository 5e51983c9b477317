import { ApplicationFailure, CancellationScope, ContinueAsNew, continueAsNew, isCancellation, patched, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { createRiskPortfolioActivities } from '../../activities/risk/risk-portfolio.activities';
import { failureMessage } from '../lib/failure-message';
import { publishRecord } from '../lib/search-attributes';
import { RISK_RUN_BATCH, RISK_RUN_LANES, RISK_RUN_RECORD_TYPE, type RiskRunInput, type RiskRunLane } from './risk-portfolio.contract';

type Acts = ReturnType<typeof createRiskPortfolioActivities>;

// A chunk is up to 20 batches of a lane (about 50,000 customers), a heartbeat after each batch:
// a lost worker is noticed within a minute, a cancellation reaches the activity at its next
// heartbeat, and a retry starts at the first batch not committed (the position is in the run row).
const chunks = proxyActivities<Acts>({
  startToCloseTimeout: '30 minutes', heartbeatTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 5, nonRetryableErrorTypes: ['RISK_RUN_INVALID'] },
});
const short = proxyActivities<Acts>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 5 } });
// One start request per changed customer (thousands after a model change): a heartbeat per hundred.
const queueing = proxyActivities<Acts>({ startToCloseTimeout: '30 minutes', heartbeatTimeout: '1 minute', retry: { maximumAttempts: 5 } });

/**
 * One portfolio run (risk-run:<tenant>:<id>): the active customers in lanes walked side by side,
 * each a chain of chunk activities; progress, summary and positions in rischio_esecuzioni. A long
 * run continues as new with its lanes; a cancellation ends it as 'cancelled', a failure as 'failed'.
 */
export async function riskPortfolioWorkflow(input: RiskRunInput): Promise<void> {
  const { runId, codAzienda } = input;
  const publish = (status: string) => publishRecord({ codAzienda, recordType: RISK_RUN_RECORD_TYPE, recordId: runId, status });
  publish('running');
  let lanes: RiskRunLane[];
  // Runs started before this step existed start their assessments batch by batch, inside runChunk.
  const assessmentsAtEnd = patched('risk-run-assessments-at-end');
  const queueAssessments = () => (assessmentsAtEnd ? queueing.queueRunAssessments({ runId, codAzienda }) : Promise.resolve());
  try {
    lanes = input.lanes ?? await short.planRun({ runId, codAzienda, lanes: RISK_RUN_LANES });
    let stopped = false;
    let suggested = false;
    await Promise.all(lanes.map(async (lane) => {
      while (!lane.done && !stopped && !suggested) {
        const r = await chunks.runChunk({ runId, codAzienda, lane, batchSize: input.batchSize ?? RISK_RUN_BATCH, ...(assessmentsAtEnd ? { perBatchAssessments: false } : {}) });
        lane.done = r.done;
        stopped ||= r.stopped;
        suggested ||= workflowInfo().continueAsNewSuggested;
      }
    }));
    if (lanes.some((l) => !l.done) && !stopped) await continueAsNew<typeof riskPortfolioWorkflow>({ ...input, lanes });
    // The scores recorded so far stand, stopped or not: their class changes go through the process.
    await queueAssessments();
    if (stopped) { publish('cancelled'); return; }
  } catch (err) {
    // Continuing as new is an exception too: the run goes on in the next execution.
    if (err instanceof ContinueAsNew) throw err;
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(async () => {
        await queueAssessments();
        await short.finishRun({ runId, codAzienda, stato: 'cancelled' });
      });
      publish('cancelled');
      throw err;
    }
    const message = failureMessage(err);
    // The batches committed before the failure recorded their scores: their class changes still go through the process.
    await queueAssessments().catch(() => undefined);
    await short.finishRun({ runId, codAzienda, stato: 'failed', errore: message });
    publish('failed');
    throw ApplicationFailure.create({ type: 'RISK_RUN_FAILED', message, nonRetryable: true });
  }
  await short.finishRun({ runId, codAzienda, stato: 'completed' });
  publish('completed');
}
