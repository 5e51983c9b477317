import { ApplicationFailure, continueAsNew, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { createImportActivities } from '../../activities/imports/imports.activities';
import { failureMessage } from '../lib/failure-message';
import { publishRecord } from '../lib/search-attributes';
import { IMPORT_RECORD_TYPE, type ImportInput } from './imports.contract';

type Acts = ReturnType<typeof createImportActivities>;

// A chunk is up to 100,000 rows in batches of 5,000, a heartbeat after each: a lost worker is
// noticed within a minute and the retry starts at the first batch not committed.
const chunks = proxyActivities<Acts>({
  startToCloseTimeout: '30 minutes', heartbeatTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 5, nonRetryableErrorTypes: ['IMPORT_FILE_UNREADABLE'] },
});
const short = proxyActivities<Acts>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 5 } });

/**
 * One import: the file is read in chunks of batches, each batch committed with its progress (rows
 * read, valid, imported, already present, errors) in import_jobs, which the pages read. A long
 * file continues as new; the position lives in the table, so a new run goes on where it was.
 */
export async function importWorkflow(input: ImportInput): Promise<void> {
  const publish = (status: string) => publishRecord({ codAzienda: input.codAzienda, recordType: IMPORT_RECORD_TYPE, recordId: input.importId, status });
  publish('in_corso');
  await short.beginImport(input);
  try {
    for (;;) {
      const r = await chunks.importChunk(input);
      if (r.refused) {
        await short.finishImport({ ...input, stato: 'fallito', errore: r.refused });
        publish('fallito');
        return;
      }
      if (r.done) break;
      if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof importWorkflow>(input);
    }
  } catch (err) {
    const message = failureMessage(err);
    await short.finishImport({ ...input, stato: 'fallito', errore: message });
    publish('fallito');
    throw ApplicationFailure.create({ type: 'IMPORT_FAILED', message, nonRetryable: true });
  }
  await short.finishImport({ ...input, stato: 'completato' });
  publish('completato');
}
