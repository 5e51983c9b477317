import { randomFillSync } from 'node:crypto';

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. Ids made one after
 * the other sort one after the other, so a bulk insert appends to the right edge of a btree on the
 * id instead of touching a random page of it per row (a version 4 id's cost on a large table).
 * Within one millisecond the 12 bits after the version count up, keeping the order in a batch.
 */
let lastMs = 0;
let seq = 0;
const pool = Buffer.alloc(8 * 1024);
let poolAt = pool.length;

export function uuidv7(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    seq = 0;
  } else if (++seq > 0xfff) {
    // 4,096 ids in one millisecond: borrow the next one (still unique and ordered).
    lastMs += 1;
    seq = 0;
  }
  if (poolAt + 8 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const r = pool.subarray(poolAt, poolAt + 8);
  poolAt += 8;
  const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
  const ms = hex(lastMs, 12);
  const randB = ((r[0]! & 0x3f) | 0x80).toString(16) + r.subarray(1, 8).toString('hex');
  return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7${hex(seq, 3)}-${randB.slice(0, 4)}-${randB.slice(4, 16)}`;
}
