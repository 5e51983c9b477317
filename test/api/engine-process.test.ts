import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/config';
import { runPilot } from '../../src/domains/monitoring/sync/engine.pilot';
import { engineWorkers } from '../../src/domains/monitoring/sync/engine.health';
import { syncTenant } from '../../src/domains/monitoring/sync/sync.run';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { seedCustomers } from '../helpers/monitoring-fixture';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `npm run engine` as its own process (docs/monitoring.md, "The engine process and its sync"):
 * started against the test stack's PostgreSQL and Temporal on a queue of its own, it is seen on
 * the queue and answers the pilot's round trip, reading the profile through its copy.
 */
describe('npm run engine: the engine as its own process', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let child: ChildProcess | undefined;
  let output = '';
  let dataDir: string;
  const queue = `engine-process-${process.pid}`;

  before(async () => {
    env = await getTestEnv();
    dataDir = mkdtempSync(join(tmpdir(), 'engine-process-'));
    const c = env.deps.config;
    child = spawn(process.execPath, ['--import', 'tsx', 'temporal/engine-main.ts'], {
      cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'info', DATA_DIR: dataDir, DATABASE_URL: env.ownerUrl, TEMPORAL_ADDRESS: env.temporalAddress,
        TENANT_CONTEXT_KEY: c.tenantContextKey, APP_DB_ROLE: c.appDbRole, APP_DB_PASSWORD: c.appDbPassword,
        PLATFORM_DB_ROLE: c.platformDbRole, PLATFORM_DB_PASSWORD: c.platformDbPassword, ENGINE_TASK_QUEUE: queue, ENGINE_INSTANCE: 'motore-di-prova-1',
        TEMPORAL_NAMESPACE: c.temporal.namespace,
      },
    });
    child.stdout!.on('data', (d) => { output += String(d); });
    child.stderr!.on('data', (d) => { output += String(d); });
  });

  after(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(20_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('polls its queue under its instance\'s name and answers the pilot, reading the profile from its copy', async () => {
    const deps = { ...env.deps, config: { ...env.deps.config, temporal: { ...env.deps.config.temporal, engineTaskQueue: queue } } };
    const deadline = Date.now() + 90_000;
    for (;;) {
      const w = await engineWorkers(deps);
      if (w.ok && w.workers.some((x) => x.identity === 'motore motore-di-prova-1')) break;
      if (child!.exitCode !== null || Date.now() > deadline) assert.fail(`the engine process is not on its queue:\n${output}`);
      await sleep(500);
    }
    const tenant = await env.createTenant();
    await seedCustomers(env.ownerDb, tenant, 2, 1);
    await syncTenant(env.deps.db, tenant, 'manuale', 'test');
    const pilot = await runPilot(deps, tenant, 'test', { cod_anagrafe: 'C-2' });
    assert.equal(pilot.motore, 'motore-di-prova-1', 'the engine process answered');
    assert.equal(pilot.profilo_motore_da, 'copia', 'through its copy');
    assert.equal(pilot.passi.at(-1)!.passo, 'andata_ritorno_motore');
  });
});
