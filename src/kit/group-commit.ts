/**
 * Group commit in the web process (docs/performance.md, "Group commit"): requests of one key (a
 * tenant and the user writing) that arrive while a transaction of that key is being written wait,
 * and the next transaction writes all of them at once. Each request is answered only after the
 * transaction holding it committed (durability is unchanged: no reply before its commit).
 *
 * No timer and no window: a request that finds a lane free is written at once (no added latency
 * when the load is light); under load, the batches grow with the requests waiting. One commit and
 * one set of round trips are then shared by many requests, which is what single-event requests
 * cost most on a few cores (each paid its own transaction, statements and WAL flush).
 *
 * A request is all or nothing as before: when a batch fails (a bad reference in one request, a
 * deadlock, anything), nothing of it committed and each of its requests is written again on its
 * own, so it gets exactly the answer or the error it would have got alone.
 */

interface Waiting<I, O> { item: I; size: number; resolve: (o: O) => void; reject: (e: unknown) => void }

export interface GroupCommitOptions<I> {
  /** The most a batch holds, in `sizeOf` units (rows); a request larger than that is written alone. */
  maxSize: number;
  sizeOf: (item: I) => number;
  /** Batches of one key written at the same time (one fills while the other commits). */
  lanes?: number;
}

export class GroupCommit<I, O> {
  readonly #queues = new Map<string, { waiting: Waiting<I, O>[]; active: number }>();
  /** Batches written and requests they held, since start (for tests and the performance notes). */
  readonly stats = { batches: 0, requests: 0, fallbacks: 0 };

  /** `write` writes the items in one transaction and answers each one's result, in their order. */
  constructor(private readonly write: (key: string, items: readonly I[]) => Promise<O[]>, private readonly opts: GroupCommitOptions<I>) {}

  submit(key: string, item: I): Promise<O> {
    let q = this.#queues.get(key);
    if (!q) this.#queues.set(key, q = { waiting: [], active: 0 });
    const queue = q;
    const p = new Promise<O>((resolve, reject) => queue.waiting.push({ item, size: this.opts.sizeOf(item), resolve, reject }));
    if (queue.active < (this.opts.lanes ?? 2)) void this.#drain(key, queue);
    return p;
  }

  async #drain(key: string, q: { waiting: Waiting<I, O>[]; active: number }): Promise<void> {
    q.active++;
    try {
      while (q.waiting.length) {
        const batch = [q.waiting.shift()!];
        let size = batch[0]!.size;
        while (q.waiting.length && size + q.waiting[0]!.size <= this.opts.maxSize) {
          size += q.waiting[0]!.size;
          batch.push(q.waiting.shift()!);
        }
        await this.#run(key, batch);
      }
    } finally {
      q.active--;
      if (!q.active && !q.waiting.length) this.#queues.delete(key);
    }
  }

  async #run(key: string, batch: Waiting<I, O>[]): Promise<void> {
    this.stats.batches++;
    this.stats.requests += batch.length;
    try {
      const out = await this.write(key, batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(out[i]!));
      return;
    } catch (err) {
      if (batch.length === 1) {
        batch[0]!.reject(err);
        return;
      }
    }
    // Nothing of the batch committed: each request on its own, as if it had come alone.
    this.stats.fallbacks++;
    await Promise.all(batch.map(async (w) => {
      try {
        w.resolve((await this.write(key, [w.item]))[0]!);
      } catch (err) {
        w.reject(err);
      }
    }));
  }
}
