import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { join } from 'node:path';
import { projectRoot } from '../src/config';

export const workflowsPath = join(projectRoot, 'workflows', 'index.ts');

let cached: Promise<WorkflowBundleWithSourceMap> | undefined;

/** Bundled once per process: webpack over workflows/ takes seconds, and the code does not change at run time. */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  cached ??= bundleWorkflowCode({ workflowsPath, logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} } as never });
  return cached;
}
