/**
 * A read-only multimap from string keys to small integers, in typed arrays: each key is kept
 * as a 64-bit hash (two independent 32-bit hashes), sorted, with its values in one array. Half
 * a million fuzzy keys of the name index took about 50 MB as a Map of arrays; this takes a
 * tenth of it. Two keys sharing both hashes (about one chance in 10^8 at that size) would only
 * add a few vocabulary tokens for the scorer to compare, never lose one.
 */

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  return h >>> 0;
}

function murmurish(s: string): number {
  let h = 0x9747b28c ^ s.length;
  for (let i = 0; i < s.length; i++) {
    let k = Math.imul(s.charCodeAt(i), 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, 0x1b873593);
    h = ((h << 13) | (h >>> 19)) * 5 + 0xe6546b64;
  }
  h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b); h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35); h ^= h >>> 16;
  return h >>> 0;
}

function includesFrom(a: number[], from: number, v: number): boolean {
  for (let i = from; i < a.length; i++) if (a[i] === v) return true;
  return false;
}

/** Collects key → value pairs, then freezes them into a KeyTable. */
export class KeyTableBuilder {
  private hi: number[] = [];
  private lo: number[] = [];
  private values: number[] = [];

  add(key: string, value: number) {
    this.hi.push(fnv1a(key));
    this.lo.push(murmurish(key));
    this.values.push(value);
  }

  build(): KeyTable {
    const { hi, lo, values } = this;
    const order = new Uint32Array(values.length);
    for (let i = 0; i < order.length; i++) order[i] = i;
    // Values of one key stay in the order they were added: retrieval visits them in that order.
    order.sort((a, b) => hi[a]! - hi[b]! || lo[a]! - lo[b]! || a - b);
    const keysHi: number[] = [], keysLo: number[] = [], starts: number[] = [], vals: number[] = [];
    for (const i of order) {
      const last = keysHi.length - 1;
      const same = last >= 0 && keysHi[last] === hi[i] && keysLo[last] === lo[i];
      // A value added twice under one key is kept once (the first time).
      if (same && includesFrom(vals, starts[last]!, values[i]!)) continue;
      if (!same) { keysHi.push(hi[i]!); keysLo.push(lo[i]!); starts.push(vals.length); }
      vals.push(values[i]!);
    }
    starts.push(vals.length);
    this.hi = []; this.lo = []; this.values = [];
    return new KeyTable(Uint32Array.from(keysHi), Uint32Array.from(keysLo), Int32Array.from(starts), Int32Array.from(vals));
  }
}

const EMPTY = new Int32Array(0);

export class KeyTable {
  constructor(private readonly hi: Uint32Array, private readonly lo: Uint32Array, private readonly starts: Int32Array, private readonly values: Int32Array) {}

  get size(): number {
    return this.hi.length;
  }

  /** The values of a key, in the order they were added (a view: do not keep it past the next build). */
  get(key: string): Int32Array {
    const h = fnv1a(key), l = murmurish(key);
    let a = 0, b = this.hi.length - 1;
    while (a <= b) {
      const m = (a + b) >>> 1;
      const mh = this.hi[m]!, ml = this.lo[m]!;
      if (mh < h || (mh === h && ml < l)) a = m + 1;
      else if (mh > h || ml > l) b = m - 1;
      else return this.values.subarray(this.starts[m]!, this.starts[m + 1]!);
    }
    return EMPTY;
  }
}
