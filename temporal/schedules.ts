import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { CDD_SWEEP_SCHEDULE_ID, CDD_SWEEP_WORKFLOW_TYPE } from '../workflows/cdd/cdd-sweep.contract';
import { RISK_EVENTS_SCHEDULE_ID, RISK_EVENTS_WORKFLOW_TYPE } from '../workflows/risk/risk-events.contract';
import { OUTBOX_SWEEP_SCHEDULE_ID, OUTBOX_SWEEP_WORKFLOW_TYPE } from '../workflows/outbox/outbox.contract';
import { DEFAULT_ENGINE_TASK_QUEUE } from '../workflows/lib/engine-queue';
import { ENGINE_SYNC_EVERY, ENGINE_SYNC_SCHEDULE_ID, ENGINE_SYNC_SWEEP_WORKFLOW_TYPE } from '../workflows/engine-sync/engine-sync.contract';
import { MONITORING_DAILY_SCHEDULE_ID, MONITORING_DAILY_SWEEP_WORKFLOW_TYPE } from '../workflows/monitoring-runs/monitoring-runs.contract';
import {
  SCREENING_IMPORT_SCHEDULE_ID, SCREENING_IMPORT_WORKFLOW_TYPE, type ScreeningImportInput,
} from '../workflows/screening/screening.contract';

/**
 * The platform's recurring work, as Temporal Schedules (visible and pausable in the Web UI).
 * Created when a worker starts; an existing schedule is left as the operators configured it.
 */
export async function ensureSchedules(client: Client, taskQueue: string, engineTaskQueue: string = DEFAULT_ENGINE_TASK_QUEUE): Promise<string[]> {
  const created: string[] = [];
  try {
    const input: ScreeningImportInput = { trigger: 'schedule', requestedBy: 'schedule' };
    await client.schedule.create({
      scheduleId: SCREENING_IMPORT_SCHEDULE_ID,
      // Lists are republished during the day (OFAC, UN, UK, EU); importing at night catches the day's changes.
      spec: { calendars: [{ hour: 3, minute: 15 }], timezone: 'Europe/Rome' },
      action: { type: 'startWorkflow', workflowType: SCREENING_IMPORT_WORKFLOW_TYPE, args: [input], taskQueue, workflowId: 'screening-import:scheduled' },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '6 hours' },
      memo: { descrizione: 'Import giornaliero delle liste sanzioni e nuovo screening delle differenze' },
    });
    created.push(SCREENING_IMPORT_SCHEDULE_ID);
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  try {
    await client.schedule.create({
      scheduleId: OUTBOX_SWEEP_SCHEDULE_ID,
      // Delivery starts right after each commit; this catches the starts lost to a crash.
      spec: { intervals: [{ every: '1 minute' }] },
      action: { type: 'startWorkflow', workflowType: OUTBOX_SWEEP_WORKFLOW_TYPE, args: [], taskQueue, workflowId: 'outbox-sweep:scheduled' },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
      memo: { descrizione: 'Avvia la consegna dei messaggi in uscita rimasti in attesa' },
    });
    created.push(OUTBOX_SWEEP_SCHEDULE_ID);
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  try {
    await client.schedule.create({
      scheduleId: CDD_SWEEP_SCHEDULE_ID,
      // Due reviews, expiring documents and new matches become CDD tasks within the hour.
      spec: { intervals: [{ every: '1 hour' }] },
      action: { type: 'startWorkflow', workflowType: CDD_SWEEP_WORKFLOW_TYPE, args: [], taskQueue, workflowId: 'cdd-sweep:scheduled' },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' },
      memo: { descrizione: 'Apre le pratiche di adeguata verifica per revisioni scadute, documenti in scadenza e nuove corrispondenze di screening' },
    });
    created.push(CDD_SWEEP_SCHEDULE_ID);
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  try {
    await client.schedule.create({
      scheduleId: RISK_EVENTS_SCHEDULE_ID,
      // A new match, changed customer data or a completed CDD task is reflected in the customer's risk within minutes.
      spec: { intervals: [{ every: '5 minutes' }] },
      action: { type: 'startWorkflow', workflowType: RISK_EVENTS_WORKFLOW_TYPE, args: [], taskQueue, workflowId: 'risk-events:scheduled' },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '10 minutes' },
      memo: { descrizione: 'Ricalcola il rischio dei clienti con nuove corrispondenze di screening, dati modificati o adeguate verifiche completate' },
    });
    created.push(RISK_EVENTS_SCHEDULE_ID);
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  try {
    await client.schedule.create({
      scheduleId: MONITORING_DAILY_SCHEDULE_ID,
      // After midnight in Rome the day has closed; before the sanctions import, so the night's work does not overlap.
      spec: { calendars: [{ hour: 1, minute: 30 }], timezone: 'Europe/Rome' },
      action: {
        type: 'startWorkflow', workflowType: MONITORING_DAILY_SWEEP_WORKFLOW_TYPE, args: [{ engineTaskQueue }], taskQueue, workflowId: 'monitoring-daily:scheduled',
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' },
      memo: { descrizione: 'Monitoraggio transazioni: elaborazione giornaliera della giornata chiusa per ogni azienda' },
    });
    created.push(MONITORING_DAILY_SCHEDULE_ID);
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  try {
    await client.schedule.create({
      scheduleId: ENGINE_SYNC_SCHEDULE_ID,
      // The engine's copy of profiles, rules and lists follows the platform within minutes (what changed since is read from the platform).
      spec: { intervals: [{ every: ENGINE_SYNC_EVERY }] },
      action: { type: 'startWorkflow', workflowType: ENGINE_SYNC_SWEEP_WORKFLOW_TYPE, args: [{ engineTaskQueue }], taskQueue, workflowId: 'engine-sync:scheduled' },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '10 minutes' },
      memo: { descrizione: 'Motore decisionale: sincronizza la copia di clienti, regole e liste di ogni azienda' },
    });
    created.push(ENGINE_SYNC_SCHEDULE_ID);
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  return created;
}
