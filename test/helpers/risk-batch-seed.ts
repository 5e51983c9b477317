import assert from 'node:assert/strict';
import { withTenant } from '../../src/db/tenant';
import { activeRuleSet } from '../../src/domains/risk';
import type { TestEnv } from './env';
import type { TestClient } from './http-client';

/** A finished run of a tenant, waited for through the API. */
export async function waitForRiskRun(client: TestClient, id: string): Promise<{ id: string; stato: string; [k: string]: unknown }> {
  for (let i = 0; i < 600; i++) {
    const r = await client.get(`/api/risk/runs/${id}`);
    assert.equal(r.status, 200, r.text);
    if (r.body.stato !== 'running') return r.body;
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error(`run ${id} did not finish`);
}

/**
 * The scenarios page's record (part BATCH): a completed dry run of the tenant's active rule set
 * over its customers, started by a compliance officer through the API.
 */
export async function seedRiskBatchPages(env: TestEnv, tenant: string, coApi: TestClient): Promise<{ dryRunId: string }> {
  const active = await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => activeRuleSet(trx, tenant));
  const started = await coApi.post('/api/risk/runs', { tipo: 'simulazione', versione_id: active.id });
  assert.equal(started.status, 202, started.text);
  const run = await waitForRiskRun(coApi, started.body.id);
  assert.equal(run.stato, 'completed', JSON.stringify(run));
  return { dryRunId: run.id };
}
