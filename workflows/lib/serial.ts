/**
 * Runs async handler bodies one at a time, in arrival order. Update handlers that await
 * an activity would otherwise interleave and each validate against a stale state.
 */
export function createSerialQueue() {
  let tail: Promise<unknown> = Promise.resolve();
  return function run<T>(fn: () => Promise<T>): Promise<T> {
    const next = tail.then(fn, fn);
    tail = next.catch(() => undefined);
    return next;
  };
}
