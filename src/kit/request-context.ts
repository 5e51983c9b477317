import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';

interface RequestContext {
  /** Hash of the caller's scope and the Idempotency-Key header, when the client sent one. */
  idempotencyKey?: string;
  /** Counters that make the n-th update and the n-th new record of a request deterministic. */
  updates: number;
  records: number;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs one request with its idempotency key, so the process kit can derive stable ids from it. */
export const runInRequest = <T>(idempotencyKey: string | undefined, fn: () => Promise<T>) =>
  storage.run({ idempotencyKey, updates: 0, records: 0 }, fn);

/**
 * The update id of the next workflow update this request sends. With an Idempotency-Key
 * a retried request sends the same ids, and Temporal answers a repeated update id with
 * the first outcome instead of applying it twice. Without a key: undefined (random).
 */
export function nextUpdateId(): string | undefined {
  const c = storage.getStore();
  if (!c?.idempotencyKey) return undefined;
  return `idem:${c.idempotencyKey}:${++c.updates}`;
}

/** The id of a record this request creates: stable across retries with the same key, random otherwise. */
export function newRecordId(): string {
  const c = storage.getStore();
  if (!c?.idempotencyKey) return randomUUID();
  const h = createHash('sha256').update(`${c.idempotencyKey}:record:${++c.records}`).digest();
  // Shaped as a version-4 UUID (variant 10xx), so every UUID check accepts it.
  h[6] = (h[6]! & 0x0f) | 0x40;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}
