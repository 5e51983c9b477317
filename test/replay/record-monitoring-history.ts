/**
 * Records the monitoring engine's workflows on the dev server into test/replay/histories/: a daily
 * batch (chunks of one customer, the peer medians), the Schedule's sweep, a replay, a backtest of a
 * draft against the version in force, and a release refused by its gates then approved by a second
 * person. Run it again when a deliberate, patched change needs a new baseline; old histories stay.
 *   node --import tsx test/replay/record-monitoring-history.ts [suffix of the file names]
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporalCliPath } from '../../temporal/binaries';
import {
  MONITORING_DAILY_SWEEP_WORKFLOW_TYPE, MONITORING_DAILY_WORKFLOW_TYPE, monitoringDailyWorkflowId,
} from '../../workflows/monitoring-runs/monitoring-runs.contract';
import { releaseWorkflowId } from '../../workflows/monitoring-release/monitoring-release.contract';
import { getTestEnv, stopTestEnv, type TestEnv } from '../helpers/env';
import { activateDraft, seedCustomers } from '../helpers/monitoring-fixture';
import { cashRule, insertMovements, waitForRun } from '../helpers/monitoring-runs';

const suffix = process.argv[2] ? `-${process.argv[2]}` : '';

function save(env: TestEnv, workflowId: string, name: string) {
  const json = execFileSync(temporalCliPath(), ['workflow', 'show', '--workflow-id', workflowId, '--address', env.temporalAddress,
    '--namespace', env.deps.config.temporal.namespace, '--output', 'json'], { encoding: 'utf8' });
  const file = join(import.meta.dirname, 'histories', `${name}${suffix}.json`);
  writeFileSync(file, json);
  console.log(`wrote ${file} (${JSON.parse(json).events.length} events)`);
}

async function main() {
  const env = await getTestEnv();
  try {
    const tenant = await env.createTenant('REPLAYMON');
    await seedCustomers(env.ownerDb, tenant, 3, 0);
    const co = await env.login(await env.createUser({ tenant, roles: ['co'] }));
    const co2 = await env.login(await env.createUser({ tenant, roles: ['co'] }));
    const admin = await env.login(await env.createUser({ tenant, roles: ['admin'] }));
    const rule = await co.post('/api/monitoring/rules', cashRule('contanti_30g', 10_000));
    await activateDraft(env, tenant, rule.body.bozza.id);
    await insertMovements(env.ownerDb, tenant, [
      { cod: 'C-1', day: '2025-06-01', importo: 6_000 }, { cod: 'C-1', day: '2025-06-10', importo: 5_000 },
      { cod: 'C-2', day: '2025-06-10', importo: 9_000 }, { cod: 'C-3', day: '2025-06-10', importo: 500 },
    ]);

    const day = '2025-06-10';
    const daily = monitoringDailyWorkflowId(tenant, day);
    await env.temporal.workflow.execute(MONITORING_DAILY_WORKFLOW_TYPE, {
      workflowId: daily, taskQueue: env.deps.config.temporal.taskQueue,
      args: [{ codAzienda: tenant, giorno: day, requestedBy: 'record', engineTaskQueue: env.deps.config.temporal.engineTaskQueue, batchSize: 1 }],
    });
    save(env, daily, 'monitoring-daily-completed');

    const sweep = `monitoring-daily-sweep-record-${tenant}`;
    await env.temporal.workflow.execute(MONITORING_DAILY_SWEEP_WORKFLOW_TYPE, {
      workflowId: sweep, taskQueue: env.deps.config.temporal.taskQueue, args: [{ engineTaskQueue: env.deps.config.temporal.engineTaskQueue }],
    });
    save(env, sweep, 'monitoring-daily-sweep');

    const replay = await co.post('/api/monitoring/replay', { dal: '2025-05-01', al: '2025-07-31' });
    await waitForRun(co, replay.body.id);
    await env.temporal.workflow.getHandle(replay.body.workflow_id).result();
    save(env, replay.body.workflow_id, 'monitoring-replay-completed');

    await co.put(`/api/monitoring/rules/${rule.body.id}`, { condizione: cashRule('x', 8_000).condizione });
    const draftId = (await co.get(`/api/monitoring/rules/${rule.body.id}`)).body.bozza.id;
    await co.post(`/api/monitoring/rules/${rule.body.id}/rilascio`, {});
    const refused = await co2.post(`/api/monitoring/rules/${rule.body.id}/rilascio/approva`, {});
    if (refused.status !== 409) throw new Error(`expected the gates to refuse: ${refused.status} ${refused.text}`);
    const backtest = await co.post(`/api/monitoring/rules/${rule.body.id}/backtest`, { dal: '2025-05-01', al: '2025-07-31' });
    await waitForRun(co, backtest.body.id);
    await env.temporal.workflow.getHandle(backtest.body.workflow_id).result();
    save(env, backtest.body.workflow_id, 'monitoring-backtest-completed');
    await admin.put('/api/admin/settings', { chiave: 'monitoring.tolleranza_volume', valore: 1_000 });
    const approved = await co2.post(`/api/monitoring/rules/${rule.body.id}/rilascio/approva`, {});
    if (approved.status !== 200) throw new Error(`approval refused: ${approved.status} ${approved.text}`);
    await env.temporal.workflow.getHandle(releaseWorkflowId(tenant, draftId)).result();
    save(env, releaseWorkflowId(tenant, draftId), 'monitoring-release-refused-then-approved');
  } finally {
    await stopTestEnv();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
