import { setMaxListeners } from 'node:events';
import { Client } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { temporalTestServerPath } from '../../temporal/binaries';
import { indexedSearchAttributes } from '../../temporal/search-attributes';

/**
 * Temporal's time-skipping test server from the project's virtualenv (never the SDK's
 * download), with the record search attributes the workflows publish registered.
 */
export async function startTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  try { Runtime.install({ logger: new DefaultLogger('WARN') }); } catch { /* already installed */ }
  const env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: temporalTestServerPath() } } });
  // This server cannot list search attributes (ensureSearchAttributes needs to): it is fresh, so add them all.
  await env.connection.operatorService.addSearchAttributes({ namespace: env.namespace ?? 'default', searchAttributes: indexedSearchAttributes() });
  return env;
}

/** What a test body gets: everything it needs from the time-skipping server, bound to this test alone. */
export interface TimeSkippingTest {
  /**
   * A client whose `result()` waits in real time. The environment's own client unlocks time
   * skipping while it awaits a result (even of a closed workflow), which lets the server jump
   * to the next timer of any other workflow at an instant the test did not choose.
   */
  client: Client;
  /** This test's own task queue, served by this test's worker. */
  taskQueue: string;
  /** The only way time moves: skips `ms` of server time, firing the timers due on the way. */
  sleep(ms: number): Promise<void>;
  /** The server's current time. */
  now(): Promise<number>;
}

export interface TimeSkippingSuiteOptions {
  workflowsPath: string;
  activities: object;
  /** Prefix of each test's task queue. */
  name: string;
}

/** How long the hooks wait for a stuck test's worker or the server to stop before going on regardless. */
const STOP_WAIT_MS = 15_000;

/** Settles with `p` or after `ms`, whichever comes first; never rejects. */
async function settleWithin(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p.catch(() => undefined), new Promise<void>((r) => { timer = setTimeout(r, ms); })]);
  clearTimeout(timer);
}

interface RunningTest {
  abort: AbortController;
  worker: Worker;
  run: Promise<unknown>;
  started: Set<string>;
  client: Client;
}

/**
 * One test file's time-skipping server, with a worker, a task queue and a client per test.
 * Registers its own mocha hooks (call it inside `describe`): the server starts before the
 * first test; after each test, whatever the test left behind is stopped even when it timed
 * out (its calls are cancelled, its worker shut down, the workflows it started and left open
 * terminated); after the last, the server is torn down. A test that hangs thus fails alone:
 * it cannot hold the server's clock for the next test, nor leave a worker or a call that
 * breaks the next file (a call retried on a closed connection throws "Channel has been shut
 * down" into whatever test runs then, and a live worker keeps the Runtime from being replaced).
 */
export function useTimeSkippingSuite(options: TimeSkippingSuiteOptions) {
  let env: TestWorkflowEnvironment | undefined;
  let current: RunningTest | undefined;
  let count = 0;

  before(async function () {
    this.timeout(120_000);
    env = await startTimeSkippingEnv();
  });

  afterEach(async function () {
    this.timeout(4 * STOP_WAIT_MS);
    const t = current;
    current = undefined;
    if (!t || !env) return;
    t.abort.abort();
    if (t.worker.getState() === 'RUNNING') t.worker.shutdown();
    await settleWithin(t.run, STOP_WAIT_MS);
    for (const workflowId of t.started) {
      await settleWithin((async () => {
        const h = t.client.workflow.getHandle(workflowId);
        if ((await h.describe()).status.name === 'RUNNING') await h.terminate('left running by its test');
      })(), STOP_WAIT_MS);
    }
  });

  after(async function () {
    this.timeout(2 * STOP_WAIT_MS);
    if (env) await settleWithin(env.teardown(), STOP_WAIT_MS);
    env = undefined;
  });

  /** Runs `body` with a fresh worker on its own task queue until it settles. One per test. */
  async function run<T>(body: (t: TimeSkippingTest) => Promise<T>): Promise<T> {
    if (!env) throw new Error('time-skipping server not started');
    if (current) throw new Error('one run per test');
    const e = env;
    const abort = new AbortController();
    // The client adds a listener per call and never removes it; the signal lives for one test.
    setMaxListeners(0, abort.signal);
    const started = new Set<string>();
    const guard = () => { if (abort.signal.aborted) throw new Error('the test is over'); };
    const client = new Client({
      connection: e.connection,
      namespace: e.namespace ?? 'default',
      interceptors: {
        workflow: [{
          async startWithDetails(input, next) { guard(); started.add(input.options.workflowId); return next(input); },
          async startUpdateWithStart(input, next) { guard(); started.add(input.workflowStartOptions.workflowId); return next(input); },
          async signalWithStart(input, next) { guard(); started.add(input.options.workflowId); return next(input); },
        }],
      },
    });
    const taskQueue = `${options.name}-${++count}`;
    const worker = await Worker.create({ connection: e.nativeConnection, taskQueue, workflowsPath: options.workflowsPath, activities: options.activities });
    const t: TimeSkippingTest = {
      client,
      taskQueue,
      sleep: async (ms) => { guard(); await e.sleep(ms); },
      now: async () => { guard(); return Number(await e.currentTimeMs()); },
    };
    const runPromise = e.connection.withAbortSignal(abort.signal, () => worker.runUntil(() => body(t)));
    current = { abort, worker, run: runPromise, started, client };
    return await runPromise;
  }

  return { run };
}
