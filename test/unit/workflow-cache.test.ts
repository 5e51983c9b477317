import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config';
import {
  CACHED_WORKFLOW_BYTES, MAX_CACHED_WORKFLOWS, MIN_CACHED_WORKFLOWS, defaultMaxCachedWorkflows, machineMemory, workflowCacheOptions,
} from '../../temporal/workflow-cache';

const GB = 1024 ** 3;

describe('workflow cache size: bounded by default, configurable', () => {
  it('the default is a share of the memory, between the floor and the ceiling', () => {
    assert.equal(defaultMaxCachedWorkflows(1 * GB), MIN_CACHED_WORKFLOWS, 'a small machine gets the floor');
    assert.equal(defaultMaxCachedWorkflows(1024 * GB), MAX_CACHED_WORKFLOWS, 'a large machine gets the ceiling');
    const mid = defaultMaxCachedWorkflows(24 * GB);
    assert.ok(mid > MIN_CACHED_WORKFLOWS && mid < MAX_CACHED_WORKFLOWS, String(mid));
    assert.ok(defaultMaxCachedWorkflows(48 * GB) > mid, 'more memory, more cache');
    // The SDK's own default on a 4 GB heap is about 2,300: far above any of these.
    const here = defaultMaxCachedWorkflows();
    assert.ok(here <= MAX_CACHED_WORKFLOWS && here >= MIN_CACHED_WORKFLOWS);
    assert.ok(here * CACHED_WORKFLOW_BYTES <= Math.max(machineMemory() / 100, MIN_CACHED_WORKFLOWS * CACHED_WORKFLOW_BYTES));
  });

  it('the configuration carries the default, a given size, or refuses a size the SDK would not take', () => {
    const env = { NODE_ENV: 'test', DATA_DIR: '/nonexistent', SESSION_SECRET: 's', SECRET_BOX_KEY: 'k', TENANT_CONTEXT_KEY: 't', APP_DB_PASSWORD: 'a', PLATFORM_DB_PASSWORD: 'p' };
    assert.equal(loadConfig(env).temporal.maxCachedWorkflows, defaultMaxCachedWorkflows());
    assert.equal(loadConfig({ ...env, WORKER_MAX_CACHED_WORKFLOWS: '7' }).temporal.maxCachedWorkflows, 7);
    assert.equal(loadConfig({ ...env, WORKER_MAX_CACHED_WORKFLOWS: '0' }).temporal.maxCachedWorkflows, 0);
    for (const bad of ['1', '-5', '2.5', 'many']) {
      assert.throws(() => loadConfig({ ...env, WORKER_MAX_CACHED_WORKFLOWS: bad }), (err) => err instanceof ConfigError && /WORKER_MAX_CACHED_WORKFLOWS/.test(err.message), bad);
    }
  });

  it('never asks for more concurrent workflow tasks than the cache holds', () => {
    assert.equal(workflowCacheOptions(3).maxConcurrentWorkflowTaskExecutions, 3);
    assert.equal(workflowCacheOptions(500).maxCachedWorkflows, 500);
    assert.ok(workflowCacheOptions(500).maxConcurrentWorkflowTaskExecutions <= 500);
  });
});
