import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createCase } from '../../src/domains/cases/cases.commands';
import type { SessionUser } from '../../src/http/context';
import { createWorker, type WorkerHandle } from '../../temporal/worker';
import { caseStateQuery, caseTransitionUpdate } from '../../workflows/case/case.contract';
import { getTestEnv, type TestEnv } from '../helpers/env';

/**
 * A worker started through createWorker with a small cache: it never holds more workflows than
 * the limit, and a workflow evicted to make room still answers (its next task replays its history).
 */
describe('worker workflow cache: the limit is set and honoured', function () {
  this.timeout(120_000);
  const LIMIT = 3;
  const CASES = 8;
  let env: TestEnv;
  let handle: WorkerHandle;
  let run: Promise<void>;
  let taskQueue: string;
  let most = 0;
  const sample = () => { most = Math.max(most, handle.worker.getStatus().numCachedWorkflows); };

  before(async () => {
    env = await getTestEnv();
    const config = env.deps.config;
    taskQueue = `cache-${randomUUID()}`;
    handle = await createWorker({
      temporal: { ...config.temporal, taskQueue, maxCachedWorkflows: LIMIT }, address: env.temporalAddress,
      db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config,
    });
    run = handle.worker.run();
  });

  after(async () => {
    if (!handle) return;
    handle.worker.shutdown();
    await run.catch(() => undefined);
    await handle.sealer.stop();
    await handle.connection.close();
  });

  it(`keeps at most ${LIMIT} of ${CASES} open case workflows cached, and every one still answers`, async () => {
    const tenant = await env.createTenant();
    const u = await env.createUser({ tenant, roles: ['analyst'] });
    const user: SessionUser = { cod_utente: u.cod_utente, cod_azienda: tenant, username: u.username, email: `${u.username}@example.test`, nome: 'N', cognome: 'C', ruoli: u.ruoli, totp_enabled: true };
    const pc = { client: env.temporal, taskQueue };
    // Sampled between every step and while the steps run: the cache may fill between two steps.
    const sampler = setInterval(sample, 5);
    try {
      const ids: string[] = [];
      for (let i = 0; i < CASES; i++) {
        const r = await createCase(pc, { codAzienda: tenant, user, data: { titolo: `Caso ${i}`, descrizione: '', tipo: 'altro', priorita: 'media' }, slaDays: 10 });
        assert.equal(r.reply.state.status, 'open');
        ids.push(r.workflowId);
        sample();
      }
      assert.ok(most >= 2, `the cache was used (at most ${most} cached)`);
      // The first cases were evicted long ago: their update and query replay them.
      for (const id of ids) {
        const h = env.temporal.workflow.getHandle(id);
        const reply = await h.executeUpdate(caseTransitionUpdate, { args: [{ action: 'add-event', event: { tipo: 'nota', testo: 'dopo lo sfratto' }, actor: { id: u.cod_utente, username: u.username, roles: u.ruoli } }] });
        assert.equal(reply.state.status, 'open', id);
        sample();
        const state = await h.query(caseStateQuery);
        assert.equal(state.status, 'open', id);
        sample();
      }
    } finally {
      clearInterval(sampler);
    }
    assert.ok(most <= LIMIT, `at most ${LIMIT} cached, saw ${most}`);
  });
});
