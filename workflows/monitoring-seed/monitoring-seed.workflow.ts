import { ApplicationFailure, executeChild, patched, proxyActivities } from '@temporalio/workflow';
import type { createMonitoringSeedActivities } from '../../activities/monitoring-seed/monitoring-seed.activities';
import { IMPORT_WORKFLOW_TYPE, importWorkflowId } from '../imports/imports.contract';
import { failureMessage } from '../lib/failure-message';
import { publishRecord } from '../lib/search-attributes';
import { MONITORING_RUN_WORKFLOW_TYPE, monitoringRunWorkflowId } from '../monitoring-runs/monitoring-runs.contract';
import { MONITORING_SEED_RECORD_TYPE, SEED_IMPORTS, type MonitoringSeedInput } from './monitoring-seed.contract';

type Acts = ReturnType<typeof createMonitoringSeedActivities>;

// Generating the files and recording the KYT events are the long steps (a heartbeat per customer batch).
const long = proxyActivities<Acts>({
  startToCloseTimeout: '60 minutes', heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 5, nonRetryableErrorTypes: ['SEED_IMPORT_FAILED'] },
});
const short = proxyActivities<Acts>({ startToCloseTimeout: '2 minutes', retry: { maximumAttempts: 5, nonRetryableErrorTypes: ['SEED_IMPORT_FAILED'] } });
// Opening the cases, CDD tasks and assessments starts a few dozen workflows, one after the other.
const work = proxyActivities<Acts>({ startToCloseTimeout: '10 minutes', retry: { maximumAttempts: 5 } });

/**
 * One seed: files, the three imports in order (relationships name customers, movements name
 * relationships), the KYT events, the templates in force with the tenant's crypto list, the replay
 * of the labelled year, the work opened on it (cases, CDD tasks, assessments), the totals. A failure of any step ends the job failed with its message.
 */
export async function monitoringSeedWorkflow(input: MonitoringSeedInput): Promise<{ stato: string }> {
  const { codAzienda, seedId } = input;
  const publish = (status: string) => publishRecord({ codAzienda, recordType: MONITORING_SEED_RECORD_TYPE, recordId: seedId, status });
  publish('in_corso');
  try {
    const files = await long.generateSeedFiles({ codAzienda, seedId });
    for (const tipo of SEED_IMPORTS) {
      const importId = files.imports[tipo];
      await short.setSeedPhase({ codAzienda, seedId, fase: `import_${tipo}` });
      await executeChild(IMPORT_WORKFLOW_TYPE, { workflowId: importWorkflowId(codAzienda, importId), args: [{ importId, codAzienda }] });
      await short.checkSeedImport({ codAzienda, seedId, tipo, importId });
    }
    await short.setSeedPhase({ codAzienda, seedId, fase: 'eventi_kyt' });
    await long.recordSeedKytEvents({ codAzienda, seedId });
    await short.setSeedPhase({ codAzienda, seedId, fase: 'regole' });
    await short.enableSeedRules({ codAzienda, seedId });
    const { runId } = await short.planSeedReplay({ codAzienda, seedId });
    await executeChild(MONITORING_RUN_WORKFLOW_TYPE, {
      workflowId: monitoringRunWorkflowId(codAzienda, 'replay', runId), args: [{ codAzienda, runId, tipo: 'replay', engineTaskQueue: input.engineTaskQueue }],
    });
    // Seeds started before this phase existed end as they began (their history has no such step).
    if (patched('monitoring-seed-work')) {
      await short.setSeedPhase({ codAzienda, seedId, fase: 'pratiche' });
      await work.openSeedWork({ codAzienda, seedId });
    }
  } catch (err) {
    const message = failureMessage(err);
    await short.finishSeed({ codAzienda, seedId, stato: 'fallito', errore: message });
    publish('fallito');
    throw ApplicationFailure.create({ type: 'SEED_FAILED', message, nonRetryable: true });
  }
  const stato = await short.finishSeed({ codAzienda, seedId, stato: 'completato' });
  publish(stato);
  return { stato };
}
