import { totalmem } from 'node:os';

/**
 * How many workflows the worker keeps in its sticky cache. The SDK's own default follows the V8
 * heap limit (about 2,300 on a 4 GB heap), so a worker with every case open in cache grew by
 * about 0.4 MB per open workflow (issue 9). A workflow evicted from the cache is not lost: its
 * next task replays its history, which for these short histories costs milliseconds.
 */

/** Heap a cached case workflow holds, as measured with 100 to 900 open cases. */
export const CACHED_WORKFLOW_BYTES = 0.4 * 1024 * 1024;
/** Share of the machine's memory the cache may take by default. */
export const CACHE_MEMORY_SHARE = 1 / 256;
export const MIN_CACHED_WORKFLOWS = 50;
export const MAX_CACHED_WORKFLOWS = 1000;
/** The SDK's default number of workflow tasks run at once; it may not exceed the cache. */
const SDK_WORKFLOW_TASK_SLOTS = 40;

/** Memory this process may use: the machine's, or the container's limit when lower. */
export function machineMemory(): number {
  const limit = process.constrainedMemory();
  const total = totalmem();
  return limit > 0 && limit < total ? limit : total;
}

/** The default cache size: a share of the memory, between a floor and a ceiling. */
export function defaultMaxCachedWorkflows(memoryBytes: number = machineMemory()): number {
  const fits = Math.floor((memoryBytes * CACHE_MEMORY_SHARE) / CACHED_WORKFLOW_BYTES);
  return Math.min(MAX_CACHED_WORKFLOWS, Math.max(MIN_CACHED_WORKFLOWS, fits));
}

/**
 * WORKER_MAX_CACHED_WORKFLOWS as the SDK accepts it: 0 turns the cache off (every task replays),
 * otherwise at least 2; unset or empty, the default above. Returns a message when refused.
 */
export function parseMaxCachedWorkflows(value: string | undefined): number | string {
  if (value === undefined || value.trim() === '') return defaultMaxCachedWorkflows();
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n === 1) return 'WORKER_MAX_CACHED_WORKFLOWS: must be 0 (no cache) or an integer of at least 2';
  return n;
}

/** Worker options that bound the memory of the workflow cache. */
export function workflowCacheOptions(maxCachedWorkflows: number) {
  return {
    maxCachedWorkflows,
    // The SDK refuses more concurrent workflow tasks than cached workflows (0: no cache, no limit from it).
    maxConcurrentWorkflowTaskExecutions: maxCachedWorkflows === 0 ? SDK_WORKFLOW_TASK_SLOTS : Math.min(SDK_WORKFLOW_TASK_SLOTS, maxCachedWorkflows),
    // One V8 context for every workflow (the SDK's default since 1.9, stated here because the
    // alternative, a context per workflow, costs several times the memory per cached workflow).
    reuseV8Context: true,
  } as const;
}
