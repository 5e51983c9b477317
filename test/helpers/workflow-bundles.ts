import { resolve } from 'node:path';
import { Worker } from '@temporalio/worker';
import { bundleWorkflowsInChild, workflowBundle, workflowsEntry } from '../../temporal/bundle';

/**
 * Workflow bundles, built once per test run and shared. Webpack over the workflows takes
 * seconds (more on a loaded machine), and the tests create a worker per test, most of them
 * with `workflowsPath`: each of those rebuilt the same bundle. The code cannot change during a
 * run, so one bundle per entry file serves every worker of the run; each worker still loads
 * it into workflow contexts of its own, so nothing else is shared between tests.
 */
const bundles = new Map<string, Promise<{ code: string }>>();

/** The bundle of `workflowsPath`, built on first use (in a child process) and then reused. */
export function testWorkflowBundle(workflowsPath: string): Promise<{ code: string }> {
  const path = resolve(workflowsPath);
  // The generated entry of every area is what the shared stack's worker runs: one bundle for both.
  if (path === resolve(workflowsEntry())) return workflowBundle();
  let b = bundles.get(path);
  if (!b) {
    b = bundleWorkflowsInChild(path);
    bundles.set(path, b);
    b.catch(() => bundles.delete(path));
  }
  return b;
}

interface BundleOptions {
  workflowsPath?: string;
  workflowBundle?: unknown;
  bundlerOptions?: unknown;
  interceptors?: { workflowModules?: unknown };
  dataConverter?: { payloadConverterPath?: unknown; failureConverterPath?: unknown };
  plugins?: unknown[];
}

/**
 * Options whose bundle is the plain bundle of `workflowsPath`: anything that changes what the
 * SDK would bundle (interceptor modules, converters, bundler options, plugins) is left to the SDK.
 */
function plainBundle(o: BundleOptions | undefined): o is BundleOptions & { workflowsPath: string } {
  return !!o && typeof o.workflowsPath === 'string' && o.workflowBundle === undefined && o.bundlerOptions === undefined
    && o.interceptors?.workflowModules === undefined && o.dataConverter?.payloadConverterPath === undefined
    && o.dataConverter?.failureConverterPath === undefined && !(o.plugins && o.plugins.length);
}

async function withSharedBundle<T extends BundleOptions>(o: T): Promise<T> {
  if (!plainBundle(o)) return o;
  const { workflowsPath, ...rest } = o;
  return { ...rest, workflowBundle: await testWorkflowBundle(workflowsPath) } as T;
}

let installed = false;

/**
 * Makes every `Worker.create`, `Worker.runReplayHistories` and `Worker.runReplayHistory` of
 * the run that names a `workflowsPath` use the shared bundle of that path instead of bundling
 * it again. Installed by the root hooks (test/helpers/hooks.ts), so a new test that follows the
 * usual `Worker.create({ workflowsPath, ... })` pattern gets it without doing anything.
 */
export function shareWorkflowBundles(): void {
  if (installed) return;
  installed = true;
  const W = Worker as unknown as Record<string, (...args: any[]) => any>;
  const create = W.create.bind(Worker);
  W.create = async (options: BundleOptions, ...rest: unknown[]) => create(await withSharedBundle(options), ...rest);
  const replayOne = W.runReplayHistory.bind(Worker);
  W.runReplayHistory = async (options: BundleOptions, ...rest: unknown[]) => replayOne(await withSharedBundle(options), ...rest);
  const replayMany = W.runReplayHistories.bind(Worker);
  W.runReplayHistories = async function* (options: BundleOptions, ...rest: unknown[]) {
    yield* replayMany(await withSharedBundle(options), ...rest);
  };
}
