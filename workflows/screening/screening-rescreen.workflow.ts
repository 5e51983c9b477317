import { ApplicationFailure, continueAsNew, proxyActivities, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { createScreeningRescreenActivities } from '../../activities/screening/screening-rescreen.activities';
import { failureMessage } from '../lib/failure-message';
import { CodAzienda, RecordId, RecordStatus, RecordType } from '../lib/search-attributes';
import {
  RESCREEN_PAGE_SIZE, SCREENING_RESCREEN_RECORD_TYPE, type RescreenPageResult, type ScreeningRescreenInput, type ScreeningRescreenResult,
} from './screening.contract';

type Acts = ReturnType<typeof createScreeningRescreenActivities>;

// A page is a few seconds of work; the heartbeat notices a lost worker long before the timeout.
// It allows a minute: a worker's first page builds the screener over the delta (seconds, in one go).
const pages = proxyActivities<Acts>({
  startToCloseTimeout: '5 minutes', heartbeatTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 5 },
});
const short = proxyActivities<Acts>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 5 } });

/**
 * One tenant's re-screen after a list import: its subjects page by page, one activity and
 * one short transaction per page, so no transaction of the tenant lasts longer than a page.
 * Progress is in screening_rescreens (the pages read it); a long run continues as new.
 */
export async function screeningRescreenWorkflow(input: ScreeningRescreenInput): Promise<ScreeningRescreenResult> {
  const { runId, codAzienda, versionIds } = input;
  const publish = (status: string) => upsertSearchAttributes([
    { key: CodAzienda, value: codAzienda }, { key: RecordType, value: SCREENING_RESCREEN_RECORD_TYPE },
    { key: RecordId, value: runId }, { key: RecordStatus, value: status },
  ]);
  publish('running');
  let after = input.after ?? null;
  for (;;) {
    let page: RescreenPageResult;
    try {
      page = await pages.rescreenPage({ runId, codAzienda, versionIds, after, pageSize: input.pageSize ?? RESCREEN_PAGE_SIZE });
    } catch (err) {
      const message = failureMessage(err);
      await short.finishRescreen({ runId, codAzienda, status: 'failed', error: message });
      publish('failed');
      throw ApplicationFailure.create({ type: 'RESCREEN_FAILED', message, nonRetryable: true });
    }
    if (page.done) break;
    after = page.lastId;
    if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof screeningRescreenWorkflow>({ ...input, after });
  }
  const result = await short.finishRescreen({ runId, codAzienda, status: 'completed' });
  publish('completed');
  return result;
}
