import { setMaxListeners } from 'node:events';
import { Client, Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { temporalTestServerPath } from '../../temporal/binaries';
import { indexedSearchAttributes } from '../../temporal/search-attributes';
import { testWorkflowBundle } from './workflow-bundles';

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

/** A promise that never settles: what a call made by a test that is already over gets. */
const parked = () => new Promise<never>(() => undefined);

type ClientCall = 'start' | 'startWithDetails' | 'startUpdate' | 'startUpdateWithStart' | 'signal' | 'signalWithStart' | 'query' | 'terminate' | 'cancel' | 'describe';
const CLIENT_CALLS: ClientCall[] = ['start', 'startWithDetails', 'startUpdate', 'startUpdateWithStart', 'signal', 'signalWithStart', 'query', 'terminate', 'cancel', 'describe'];

interface RunningTest {
  abort: AbortController;
  connection: Connection;
  worker?: Worker;
  /** Creates the worker and runs the body; settles once both are over. */
  done: Promise<unknown>;
  started: Set<string>;
}

/**
 * One test file's time-skipping server, with a worker, a task queue, a connection and a client
 * per test. Registers its own mocha hooks (call it inside `describe`): the server starts before
 * the first test; after each test, whatever the test left behind is stopped even when it timed
 * out: its calls in flight are cancelled and any later one is parked (it never settles and never
 * reaches the network), its worker is shut down and the workflows it started and left open are
 * terminated; after the last test the server is torn down.
 *
 * So a test that hangs fails alone. Left running, its worker keeps the Runtime from shutting down
 * (the next file's Runtime.install fails) and its workflow tasks hold the server's clock (time
 * then runs at wall-clock pace and every later sleep hangs); a call of its still in flight when
 * the connection closes is retried on the closed channel and throws "Channel has been shut down",
 * uncaught, into whatever test runs then. A stuck test's own connection is therefore never closed.
 */
export function useTimeSkippingSuite(options: TimeSkippingSuiteOptions) {
  let env: TestWorkflowEnvironment | undefined;
  /** For the hooks' clean-up, which must not go through a finished test's parked client. */
  let cleanupClient: Client | undefined;
  let current: RunningTest | undefined;
  const closable: Connection[] = [];
  let count = 0;

  before(async function () {
    this.timeout(120_000);
    env = await startTimeSkippingEnv();
    cleanupClient = new Client({ connection: env.connection, namespace: env.namespace ?? 'default' });
  });

  afterEach(async function () {
    this.timeout(4 * STOP_WAIT_MS);
    const t = current;
    current = undefined;
    if (!t) return;
    t.abort.abort();
    if (t.worker?.getState() === 'RUNNING') t.worker.shutdown();
    let over = false;
    await settleWithin(t.done.finally(() => { over = true; }), STOP_WAIT_MS);
    if (over) closable.push(t.connection);
    for (const workflowId of t.started) {
      await settleWithin((async () => {
        const h = cleanupClient!.workflow.getHandle(workflowId);
        if ((await h.describe()).status.name === 'RUNNING') await h.terminate('left running by its test');
      })(), STOP_WAIT_MS);
    }
  });

  after(async function () {
    this.timeout(3 * STOP_WAIT_MS);
    await Promise.all(closable.splice(0).map((c) => settleWithin(c.close(), STOP_WAIT_MS)));
    if (env) await settleWithin(env.teardown(), STOP_WAIT_MS);
    env = undefined;
  });

  /** Runs `body` with a fresh worker on its own task queue until it settles. Once per test. */
  async function run<T>(body: (t: TimeSkippingTest) => Promise<T>): Promise<T> {
    if (!env) throw new Error('time-skipping server not started');
    if (current) throw new Error('one run per test');
    const e = env;
    const abort = new AbortController();
    // The client adds a listener per call and never removes it; the signal lives for one test.
    setMaxListeners(0, abort.signal);
    const over = () => abort.signal.aborted;
    const started = new Set<string>();
    const connection = Connection.lazy({ address: e.address });
    const park = Object.fromEntries(CLIENT_CALLS.map((call) => [call, (input: never, next: (i: never) => Promise<unknown>) => (over() ? parked() : next(input))]));
    const client = new Client({
      connection,
      namespace: e.namespace ?? 'default',
      interceptors: {
        workflow: [{
          ...park,
          startWithDetails: (input, next) => { if (over()) return parked(); started.add(input.options.workflowId); return next(input); },
          startUpdateWithStart: (input, next) => { if (over()) return parked(); started.add(input.workflowStartOptions.workflowId); return next(input); },
          signalWithStart: (input, next) => { if (over()) return parked(); started.add(input.options.workflowId); return next(input); },
        }],
      },
    });
    const taskQueue = `${options.name}-${++count}`;
    const t: TimeSkippingTest = {
      client,
      taskQueue,
      sleep: async (ms) => { if (over()) return parked(); await e.sleep(ms); },
      now: async () => (over() ? parked() : Number(await e.currentTimeMs())),
    };
    const running: RunningTest = { abort, connection, started, done: Promise.resolve() };
    current = running;
    running.done = (async () => {
      const worker = await Worker.create({ connection: e.nativeConnection, taskQueue, workflowBundle: await testWorkflowBundle(options.workflowsPath), activities: options.activities });
      running.worker = worker;
      // Timed out while the worker was being created (the first of the run waits for the workflows' bundle): run it empty so it lets go of the connection.
      if (over()) return await worker.runUntil(Promise.resolve());
      return await e.connection.withAbortSignal(abort.signal, () => connection.withAbortSignal(abort.signal, () => worker.runUntil(() => body(t))));
    })();
    return await (running.done as Promise<T>);
  }

  return { run };
}
