import { ApplicationFailure, proxyActivities, upsertSearchAttributes, uuid4, workflowInfo } from '@temporalio/workflow';
import type { createScreeningImportActivities } from '../../activities/screening/screening-import.activities';
import { RecordId, RecordStatus, RecordType } from '../lib/search-attributes';
import { SCREENING_IMPORT_RECORD_TYPE, type ListImportResult, type ScreeningImportInput, type ScreeningImportResult } from './screening.contract';

type Acts = ReturnType<typeof createScreeningImportActivities>;

const short = proxyActivities<Acts>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 5 } });
const heavy = proxyActivities<Acts>({
  startToCloseTimeout: '15 minutes',
  retry: { initialInterval: '5 seconds', maximumAttempts: 3, nonRetryableErrorTypes: ['LIST_NOT_FOUND'] },
});

/**
 * Sanctions list import: one activity per list (each stores a version and its diff), then
 * one re-screen of every tenant's subjects against the added and modified entries. Progress
 * lives in screening_import_runs, where the pages read it.
 */
export async function screeningImportWorkflow(input: ScreeningImportInput): Promise<ScreeningImportResult> {
  const runId = input.runId ?? uuid4();
  const publish = (status: string) => upsertSearchAttributes([
    { key: RecordType, value: SCREENING_IMPORT_RECORD_TYPE }, { key: RecordId, value: runId }, { key: RecordStatus, value: status },
  ]);
  publish('running');
  const lists = await short.beginScreeningImport({ runId, workflowId: workflowInfo().workflowId, trigger: input.trigger, requestedBy: input.requestedBy });
  const results: ListImportResult[] = [];
  try {
    for (const list of lists) results.push(await heavy.importScreeningList({ runId, list }));
    const versionIds = results.filter((r) => !r.skipped && r.versionId !== null && r.added + r.modified > 0).map((r) => r.versionId!);
    const { matchesCreated } = await heavy.rescreenAfterImport({ runId, versionIds });
    await short.finishScreeningImport({ runId, status: 'completed' });
    publish('completed');
    return { runId, lists: results, matchesCreated };
  } catch (err) {
    const message = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    await short.finishScreeningImport({ runId, status: 'failed', error: message });
    publish('failed');
    throw ApplicationFailure.create({ type: 'IMPORT_FAILED', message, nonRetryable: true });
  }
}
