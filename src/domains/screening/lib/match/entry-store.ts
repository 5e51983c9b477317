import type { ListEntry, Schema } from '../types';

/** What the screener reads of every candidate it scores: schema and the qualifiers. */
export interface EntryQualifiers {
  schema: Schema;
  birthDates: readonly string[];
  nationalities: readonly string[];
  countries: readonly string[];
  gender?: 'male' | 'female';
}

const NONE: readonly string[] = Object.freeze([]);

/**
 * Every list entry held once and compactly: the few fields scored for each candidate as small
 * objects of shared strings, the whole entry as UTF-8 JSON in one buffer, parsed only for the
 * hits a screening returns. Thirty thousand entries as objects took about 48 MB of heap; as
 * bytes they take about 20 MB (outside the heap).
 */
export class EntryStore {
  private readonly bytes: Buffer;
  private readonly offsets: Uint32Array;
  private readonly qualifiers: EntryQualifiers[];

  constructor(entries: readonly ListEntry[]) {
    const strings = new Map<string, string>();
    const shared = (s: string) => { const known = strings.get(s); if (known !== undefined) return known; strings.set(s, s); return s; };
    const list = (a: readonly string[]) => (a.length ? a.map(shared) : NONE);
    const json = entries.map((e) => JSON.stringify(e));
    this.offsets = new Uint32Array(entries.length + 1);
    json.forEach((j, i) => { this.offsets[i + 1] = this.offsets[i]! + Buffer.byteLength(j); });
    this.bytes = Buffer.allocUnsafe(this.offsets[entries.length]!);
    json.forEach((j, i) => this.bytes.write(j, this.offsets[i]!));
    this.qualifiers = entries.map((e) => ({
      schema: shared(e.schema) as Schema, birthDates: list(e.birthDates), nationalities: list(e.nationalities), countries: list(e.countries),
      ...(e.gender ? { gender: e.gender } : {}),
    }));
  }

  get size(): number {
    return this.qualifiers.length;
  }

  /** Bytes of the entries' JSON (for the benchmark's figures). */
  get byteLength(): number {
    return this.bytes.length;
  }

  qualifiersOf(i: number): EntryQualifiers {
    return this.qualifiers[i]!;
  }

  /** The whole entry, a new object at each call. */
  entry(i: number): ListEntry {
    return JSON.parse(this.bytes.toString('utf8', this.offsets[i]!, this.offsets[i + 1]!)) as ListEntry;
  }
}
