import assert from 'node:assert/strict';
import { getTestEnv } from '../helpers/env';
import { ensureSchedules } from '../../temporal/schedules';
import { CDD_SWEEP_SCHEDULE_ID, CDD_SWEEP_WORKFLOW_TYPE } from '../../workflows/cdd/cdd-sweep.contract';
import { RISK_EVENTS_SCHEDULE_ID, RISK_EVENTS_WORKFLOW_TYPE } from '../../workflows/risk/risk-events.contract';
import { OUTBOX_SWEEP_SCHEDULE_ID, OUTBOX_SWEEP_WORKFLOW_TYPE } from '../../workflows/outbox/outbox.contract';
import { SCREENING_IMPORT_SCHEDULE_ID, SCREENING_IMPORT_WORKFLOW_TYPE } from '../../workflows/screening/screening.contract';
import { MONITORING_DAILY_SCHEDULE_ID, MONITORING_DAILY_SWEEP_WORKFLOW_TYPE } from '../../workflows/monitoring-runs/monitoring-runs.contract';
import { ENGINE_SYNC_SCHEDULE_ID, ENGINE_SYNC_SWEEP_WORKFLOW_TYPE } from '../../workflows/engine-sync/engine-sync.contract';

describe('Temporal schedules', () => {
  it('creates the daily sanctions import, the outbox sweep, the CDD sweep, the risk events sweep and the monitoring daily batch and the engine sync once, and leaves them alone on the next start', async () => {
    const env = await getTestEnv();
    const taskQueue = env.deps.config.temporal.taskQueue;
    assert.deepEqual(await ensureSchedules(env.temporal, taskQueue, 'motore-di-prova'),
      [SCREENING_IMPORT_SCHEDULE_ID, OUTBOX_SWEEP_SCHEDULE_ID, CDD_SWEEP_SCHEDULE_ID, RISK_EVENTS_SCHEDULE_ID, MONITORING_DAILY_SCHEDULE_ID, ENGINE_SYNC_SCHEDULE_ID]);
    const handle = env.temporal.schedule.getHandle(SCREENING_IMPORT_SCHEDULE_ID);
    const sweep = env.temporal.schedule.getHandle(OUTBOX_SWEEP_SCHEDULE_ID);
    const cdd = env.temporal.schedule.getHandle(CDD_SWEEP_SCHEDULE_ID);
    const risk = env.temporal.schedule.getHandle(RISK_EVENTS_SCHEDULE_ID);
    const monitoring = env.temporal.schedule.getHandle(MONITORING_DAILY_SCHEDULE_ID);
    const engineSync = env.temporal.schedule.getHandle(ENGINE_SYNC_SCHEDULE_ID);
    try {
      const m = await monitoring.describe();
      assert.equal(m.action.type, 'startWorkflow');
      assert.equal(m.action.workflowType, MONITORING_DAILY_SWEEP_WORKFLOW_TYPE);
      assert.equal(m.action.taskQueue, taskQueue);
      assert.deepEqual(m.action.args, [{ engineTaskQueue: 'motore-di-prova' }], 'the engine queue of the configuration travels in the input');
      assert.equal(m.spec.timezone, 'Europe/Rome');
      assert.equal(m.spec.calendars?.[0]?.hour?.[0]?.start, 1);
      const e = await engineSync.describe();
      assert.equal(e.action.type, 'startWorkflow');
      assert.equal(e.action.workflowType, ENGINE_SYNC_SWEEP_WORKFLOW_TYPE);
      assert.deepEqual(e.action.args, [{ engineTaskQueue: 'motore-di-prova' }]);
      assert.equal(e.spec.intervals?.[0]?.every, 180_000, 'every three minutes');
      const c = await cdd.describe();
      assert.equal(c.action.type, 'startWorkflow');
      assert.equal(c.action.workflowType, CDD_SWEEP_WORKFLOW_TYPE);
      assert.equal(c.spec.intervals?.[0]?.every, 3_600_000, 'every hour');
      const r = await risk.describe();
      assert.equal(r.action.type, 'startWorkflow');
      assert.equal(r.action.workflowType, RISK_EVENTS_WORKFLOW_TYPE);
      assert.equal(r.spec.intervals?.[0]?.every, 300_000, 'every five minutes');
      const s = await sweep.describe();
      assert.equal(s.action.type, 'startWorkflow');
      assert.equal(s.action.workflowType, OUTBOX_SWEEP_WORKFLOW_TYPE);
      assert.equal(s.spec.intervals?.[0]?.every, 60_000, 'every minute');
      // An operator's change survives a restart of the worker.
      await handle.pause('paused by the operator');
      assert.deepEqual(await ensureSchedules(env.temporal, taskQueue), []);
      const d = await handle.describe();
      assert.equal(d.state.paused, true);
      assert.equal(d.action.type, 'startWorkflow');
      assert.equal(d.action.workflowType, SCREENING_IMPORT_WORKFLOW_TYPE);
      assert.equal(d.action.taskQueue, taskQueue);
      assert.equal(d.spec.timezone, 'Europe/Rome');
      assert.equal(d.spec.calendars?.[0]?.hour?.[0]?.start, 3);
      assert.ok(d.info.nextActionTimes.length === 0 || d.info.nextActionTimes[0]! > new Date(), 'next run is in the future');
    } finally {
      await handle.delete();
      await sweep.delete();
      await cdd.delete();
      await risk.delete();
      await monitoring.delete();
      await engineSync.delete();
    }
  });
});
