import { proxyActivities, setHandler } from '@temporalio/workflow';
import type { createScreeningBatchActivities } from '../../activities/screening/screening-batch.activities';
import { publishRecord } from '../lib/search-attributes';
import {
  INLINE_BATCH_LIMIT, SCREENING_BATCH_RECORD_TYPE, screeningBatchProgressQuery, type ScreeningBatchInput, type ScreeningBatchProgress,
} from './screening.contract';

const acts = proxyActivities<ReturnType<typeof createScreeningBatchActivities>>({
  startToCloseTimeout: '5 minutes', retry: { initialInterval: '2 seconds', maximumAttempts: 5 },
});

/** A large batch screening: chunks of subjects, one activity each, progress by query. */
export async function screeningBatchWorkflow(input: ScreeningBatchInput): Promise<ScreeningBatchProgress> {
  const progress: ScreeningBatchProgress = { total: input.subjects.length, done: 0, matchesCreated: 0, status: 'running' };
  setHandler(screeningBatchProgressQuery, () => progress);
  const publish = () => publishRecord({ codAzienda: input.codAzienda, recordType: SCREENING_BATCH_RECORD_TYPE, recordId: input.batchId, status: progress.status });
  publish();
  for (let i = 0; i < input.subjects.length; i += INLINE_BATCH_LIMIT) {
    const chunk = input.subjects.slice(i, i + INLINE_BATCH_LIMIT);
    // The chunk's first index makes a retried activity's audit trail traceable to its batch slot.
    const r = await acts.screenBatchChunk({ codAzienda: input.codAzienda, actor: input.actor, batchId: input.batchId, offset: i, subjects: chunk });
    progress.done += chunk.length;
    progress.matchesCreated += r.matchesCreated;
  }
  progress.status = 'completed';
  publish();
  return progress;
}
