import type { ListEntry } from '../types';
import { KeyTableBuilder, type KeyTable } from './key-table';
import { looksLikeOrg, makeToken, normalizeName, type NameToken, type NormalizedName } from './normalize';
import { tokenSimilarity } from './token-similarity';
import { joinable, MIN_JOINED_SIMILARITY } from './name-scorer';

export interface NameRecord {
  entry: number;
  name: string;
  weak: boolean;
  norm: NormalizedName;
}

/** Retrieval never reaches a candidate through a token less similar than this. */
const RETRIEVAL_MIN_SIMILARITY = 0.6;

function deletions(s: string): string[] {
  if (s.length < 4) return [];
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) out.push(s.slice(0, i) + s.slice(i + 1));
  return out;
}

/** Keys under which a vocabulary token is found: exact, fold, phonetic codes, skeleton, deletion neighbourhood. */
function tokenKeys(t: NameToken): string[] {
  const keys = [`e${t.text}`, `f${t.fold}`, `d${t.fold}`];
  if (t.phon[0].length >= 2) keys.push(`p${t.phon[0]}`);
  if (t.phon[1] && t.phon[1] !== t.phon[0] && t.phon[1].length >= 2) keys.push(`p${t.phon[1]}`);
  if (t.skel.length >= 2) keys.push(`s${t.skel}`);
  for (const d of deletions(t.fold)) keys.push(`d${d}`);
  return keys;
}

function queryKeys(t: NameToken): string[] {
  // A token from a script without vowels can only be found through its consonant skeleton.
  if (t.abjad) return t.skel.length >= 1 ? [`s${t.skel}`] : [];
  const keys = [`e${t.text}`, `f${t.fold}`, `d${t.fold}`];
  if (t.phon[0].length >= 2) keys.push(`p${t.phon[0]}`);
  if (t.phon[1] && t.phon[1] !== t.phon[0] && t.phon[1].length >= 2) keys.push(`p${t.phon[1]}`);
  for (const d of deletions(t.fold)) keys.push(`d${d}`);
  // A typo may change how the query folds; its written form's deletions still meet the listed fold's.
  if (t.text !== t.fold) for (const d of [t.text, ...deletions(t.text)]) keys.push(`d${d}`);
  return keys;
}

/**
 * In-memory inverted index: vocabulary tokens under several fuzzy keys, and postings from
 * vocabulary token to the name records (primary names and aliases) that contain it. Held in
 * typed arrays and one table of distinct tokens (docs/screening-matcher.md, "Memory"): the
 * index over every list was 60 MB of objects, maps and arrays.
 */
export class NameIndex {
  /** Distinct tokens of the records (text and script flags), each NameToken once. */
  private readonly tokens: NameToken[] = [];
  /** Vocabulary: the first token seen with each text, plus fused neighbours. */
  private readonly vocab: NameToken[] = [];
  private readonly keys: KeyTable;
  /** Postings: records of vocabulary token v are postRecords[postStart[v] .. postStart[v + 1]). */
  private readonly postStart: Int32Array;
  private readonly postRecords: Int32Array;
  private readonly recEntry: Int32Array;
  private readonly recWeak: Uint8Array;
  /** Tokens of record r are tokens[recTokens[recStart[r] .. recStart[r + 1])]. */
  private readonly recStart: Int32Array;
  private readonly recTokens: Int32Array;
  private readonly recNames: string[] = [];
  private acc: Float32Array;
  private cur: Float32Array;

  constructor(entries: ListEntry[], include: (e: ListEntry) => boolean = () => true) {
    // Build-time lookups, dropped once the arrays are made.
    const tokenIds = new Map<string, number>();
    const vocabIds = new Map<string, number>();
    const keys = new KeyTableBuilder();
    const postings: number[][] = [];
    const recEntry: number[] = [], recWeak: number[] = [], recStart: number[] = [0], recTokens: number[] = [];
    const tokenId = (t: NameToken) => {
      const k = `${t.abjad ? 1 : 0}${t.translit ? 1 : 0}${t.text}`;
      let id = tokenIds.get(k);
      if (id === undefined) { id = this.tokens.length; this.tokens.push(t); tokenIds.set(k, id); }
      return id;
    };
    const vocabId = (t: NameToken) => {
      let id = vocabIds.get(t.text);
      if (id !== undefined) return id;
      id = this.vocab.length;
      this.vocab.push(t);
      vocabIds.set(t.text, id);
      postings.push([]);
      for (const k of tokenKeys(t)) keys.add(k, id);
      return id;
    };
    const addRecord = (entry: number, name: string, weak: boolean, toks: NameToken[]) => {
      const rid = recEntry.length;
      recEntry.push(entry); recWeak.push(weak ? 1 : 0); this.recNames.push(name);
      for (const t of toks) recTokens.push(tokenId(t));
      recStart.push(recTokens.length);
      const post = (t: NameToken) => {
        const p = postings[vocabId(t)]!;
        if (p[p.length - 1] !== rid) p.push(rid);
      };
      toks.forEach(post);
      // Joined neighbours around short parts ("bin laden" -> "binladen") so the fused spelling finds them.
      for (let i = 0; i + 1 < toks.length; i++) {
        const a = toks[i]!, b = toks[i + 1]!;
        if (joinable(a, b)) post(makeToken(a.text + b.text, a.abjad || b.abjad));
      }
    };
    entries.forEach((e, ei) => {
      if (!include(e)) return;
      const seen = new Set<string>();
      const add = (name: string, weak: boolean) => {
        const norm = normalizeName(name);
        const key = norm.tokens.map((t) => t.text).join(' ');
        if (!key || seen.has(key)) return;
        seen.add(key);
        addRecord(ei, name, weak, norm.tokens);
      };
      add(e.name, false);
      for (const a of e.aliases) add(a.name, a.quality === 'weak');
    });
    this.keys = keys.build();
    this.postStart = new Int32Array(postings.length + 1);
    this.postRecords = new Int32Array(postings.reduce((n, p) => n + p.length, 0));
    postings.forEach((p, v) => { this.postRecords.set(p, this.postStart[v]!); this.postStart[v + 1] = this.postStart[v]! + p.length; });
    this.recEntry = Int32Array.from(recEntry);
    this.recWeak = Uint8Array.from(recWeak);
    this.recStart = Int32Array.from(recStart);
    this.recTokens = Int32Array.from(recTokens);
    this.acc = new Float32Array(recEntry.length);
    this.cur = new Float32Array(recEntry.length);
  }

  get vocabularySize(): number {
    return this.vocab.length;
  }

  get recordCount(): number {
    return this.recEntry.length;
  }

  /** Number of fuzzy keys (for the benchmark's figures). */
  get keyCount(): number {
    return this.keys.size;
  }

  private recordTokens(rid: number): NameToken[] {
    const out: NameToken[] = [];
    for (let i = this.recStart[rid]!; i < this.recStart[rid + 1]!; i++) out.push(this.tokens[this.recTokens[i]!]!);
    return out;
  }

  /** One name record as the scorer reads it, made on demand from the arrays. */
  record(rid: number): NameRecord {
    const name = this.recNames[rid]!;
    const tokens = this.recordTokens(rid);
    return { entry: this.recEntry[rid]!, name, weak: this.recWeak[rid] === 1, norm: { raw: name, tokens, looksLikeOrg: looksLikeOrg(tokens) } };
  }

  /** Vocabulary tokens close to a query token, with their similarity. */
  private similarTokens(t: NameToken, memo: Map<number, number>, joined: boolean): [number, number][] {
    const out: [number, number][] = [];
    const seen = new Set<number>();
    for (const k of queryKeys(t)) {
      for (const id of this.keys.get(k)) {
        if (seen.has(id)) continue;
        seen.add(id);
        const v = this.vocab[id]!;
        // Tokens of very different length cannot reach the retrieval floor (skeletons aside).
        if (!t.abjad && Math.abs(v.fold.length - t.fold.length) > Math.max(2, 0.34 * Math.max(v.fold.length, t.fold.length))) continue;
        let s = memo.get(id);
        if (s === undefined) { s = tokenSimilarity(t, v, joined); memo.set(id, s); }
        if (s >= (joined ? MIN_JOINED_SIMILARITY : RETRIEVAL_MIN_SIMILARITY)) out.push([id, s]);
      }
    }
    return out;
  }

  /**
   * Candidate name records ranked by the weighted sum, over query tokens, of the best similarity
   * of any of their tokens: a cheap upper bound of the full score used to keep the top `limit`.
   */
  candidates(query: NormalizedName, limit: number): number[] {
    const toks = query.tokens;
    const weight = (t: NameToken) => Math.min(t.weightPerson, t.weightOrg);
    let active = toks.map((t, i) => ({ t, i })).filter(({ t }) => weight(t) >= 0.3);
    if (!active.length) active = toks.map((t, i) => ({ t, i }));
    const { acc, cur } = this;
    const accTouched: number[] = [];
    let total = 0;
    for (const { t, i } of active) {
      const w = weight(t);
      total += w;
      const touched: number[] = [];
      const units: NameToken[] = [t];
      const prev = toks[i - 1], next = toks[i + 1];
      if (prev && joinable(prev, t)) units.push(makeToken(prev.text + t.text, prev.abjad || t.abjad));
      if (next && joinable(t, next)) units.push(makeToken(t.text + next.text, t.abjad || next.abjad));
      for (const [u, unit] of units.entries()) {
        for (const [id, s] of this.similarTokens(unit, new Map(), u > 0)) {
          for (let p = this.postStart[id]!; p < this.postStart[id + 1]!; p++) {
            const rid = this.postRecords[p]!;
            if (cur[rid] === 0) touched.push(rid);
            if (s > cur[rid]!) cur[rid] = s;
          }
        }
      }
      for (const rid of touched) {
        if (acc[rid] === 0) accTouched.push(rid);
        acc[rid] += w * cur[rid]!;
        cur[rid] = 0;
      }
    }
    const floor = 0.3 * total;
    const picked = accTouched.filter((r) => acc[r]! >= floor);
    // Ties (thousands of records sharing a common name) go to the shorter names, whose coverage is higher.
    const size = (r: number) => this.recStart[r + 1]! - this.recStart[r]!;
    picked.sort((a, b) => acc[b]! - acc[a]! || size(a) - size(b));
    for (const rid of accTouched) acc[rid] = 0;
    return picked.slice(0, limit);
  }
}
