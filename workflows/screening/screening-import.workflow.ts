import { ApplicationFailure, executeChild, patched, proxyActivities, upsertSearchAttributes, uuid4, workflowInfo } from '@temporalio/workflow';
import type { createScreeningImportActivities } from '../../activities/screening/screening-import.activities';
import type { createScreeningRescreenActivities } from '../../activities/screening/screening-rescreen.activities';
import { failureMessage } from '../lib/failure-message';
import { RecordId, RecordStatus, RecordType } from '../lib/search-attributes';
import { screeningRescreenWorkflow } from './screening-rescreen.workflow';
import {
  RESCREEN_PARALLEL_TENANTS, SCREENING_IMPORT_RECORD_TYPE, screeningRescreenWorkflowId,
  type ListImportResult, type ScreeningImportInput, type ScreeningImportResult,
} from './screening.contract';

type Acts = ReturnType<typeof createScreeningImportActivities> & ReturnType<typeof createScreeningRescreenActivities>;

const short = proxyActivities<Acts>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 5 } });
const heavy = proxyActivities<Acts>({
  startToCloseTimeout: '15 minutes',
  retry: { initialInterval: '5 seconds', maximumAttempts: 3, nonRetryableErrorTypes: ['LIST_NOT_FOUND'] },
});

/**
 * Every tenant's re-screen, a child workflow each, a few at a time. A tenant that fails does
 * not stop the others; the run fails at the end, naming them.
 */
async function rescreenTenants(runId: string, versionIds: number[], tenants: string[], pageSize?: number): Promise<number> {
  const queue = [...tenants];
  const failed: string[] = [];
  let matchesCreated = 0;
  const lane = async () => {
    for (let codAzienda = queue.shift(); codAzienda !== undefined; codAzienda = queue.shift()) {
      try {
        const r = await executeChild(screeningRescreenWorkflow, {
          workflowId: screeningRescreenWorkflowId(codAzienda, runId), args: [{ runId, codAzienda, versionIds, pageSize }],
        });
        matchesCreated += r.matchesCreated;
      } catch (err) {
        failed.push(`${codAzienda}: ${failureMessage(err)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(RESCREEN_PARALLEL_TENANTS, tenants.length) }, lane));
  if (failed.length) throw ApplicationFailure.create({ type: 'RESCREEN_FAILED', message: `re-screen failed for ${failed.join('; ')}`, nonRetryable: true });
  return matchesCreated;
}

/**
 * Sanctions list import: one activity per list (each stores a version and its diff), then
 * the re-screen of every tenant's subjects against the added and modified entries, one child
 * workflow per tenant working page by page. Progress lives in screening_import_runs and
 * screening_rescreens, where the pages read it.
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
    let matchesCreated: number;
    if (patched('screening-rescreen-per-tenant')) {
      matchesCreated = await rescreenTenants(runId, versionIds, await short.planRescreen({ runId, versionIds }), input.rescreenPageSize);
    } else {
      // Histories from before the per-tenant children: one activity that pages through all tenants.
      ({ matchesCreated } = await heavy.rescreenAfterImport({ runId, versionIds }));
    }
    await short.finishScreeningImport({ runId, status: 'completed' });
    publish('completed');
    return { runId, lists: results, matchesCreated };
  } catch (err) {
    const message = failureMessage(err);
    await short.finishScreeningImport({ runId, status: 'failed', error: message });
    publish('failed');
    throw ApplicationFailure.create({ type: 'IMPORT_FAILED', message, nonRetryable: true });
  }
}
