import type { ListEntry, Schema } from '../types';
import { canonicalWalletAddress } from '../importers/crypto';
import { makeToken, normalizeName } from './normalize';
import { COMMON_NAMES } from './name-vocabulary';
import { isPopulationName } from './common-names';
import { EntryStore } from './entry-store';
import { NameIndex } from './name-index';
import { scoreNames, type NameScore } from './name-scorer';
import { isOrgSchema, qualifierEffect, schemaFactor, type QueryQualifiers } from './qualifiers';
import { DEFAULT_CANDIDATES, DEFAULT_MATCH_THRESHOLD, DEFAULT_REVIEW_THRESHOLD, PENALTY, WEAK_SINGLE_ALIAS_CAP, COMMON_NAME_CAP } from './thresholds';

export interface ScreeningQuery extends QueryQualifiers {
  name: string;
  schema?: Schema;
  /** identifiers (passport, IMO, registration numbers ...) of the screened party */
  identifiers?: string[];
  wallets?: string[];
}

export interface ScreeningHit {
  entry: ListEntry;
  score: number;
  /** 'name' for a fuzzy name hit; 'identifier' / 'wallet' for exact hits that score 1 */
  kind: 'name' | 'identifier' | 'wallet';
  matchedName?: string;
  matchedAliasWeak?: boolean;
  nameScore?: NameScore;
  factors: { schema: number; alias: number; qualifiers: number };
  notes: string[];
}

export interface ScreenOptions {
  reviewThreshold?: number;
  limit?: number;
  candidates?: number;
}

export interface ScreenerOptions {
  /** lists whose names should not be fuzzy-matched (e.g. wallet-only lists) */
  nameIndexExclude?: (e: ListEntry) => boolean;
}

const isStrongPersonToken = (t: string) => makeToken(t).kindPerson === 'name';

/** A query token that is a frequent population name is an established name, not a typo of another one. */
const knownName = (t: string) => COMMON_NAMES.has(t) || isPopulationName(t);

const normId = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');

/**
 * Screens names, wallets and identifiers against every list entry given. Holds the entries once,
 * compactly (EntryStore), and the name index in typed arrays (NameIndex): the caller's entry
 * objects are not kept, and each hit carries a fresh copy of its entry.
 */
export class Screener {
  readonly index: NameIndex;
  private readonly store: EntryStore;
  private wallets = new Map<string, number[]>();
  private ids = new Map<string, number[]>();

  constructor(entries: readonly ListEntry[], options: ScreenerOptions = {}) {
    const exclude = options.nameIndexExclude ?? ((e: ListEntry) => e.list.endsWith('_crypto'));
    this.index = new NameIndex(entries as ListEntry[], (e) => !exclude(e));
    this.store = new EntryStore(entries);
    const push = (m: Map<string, number[]>, k: string, ei: number) => {
      const l = m.get(k);
      if (!l) m.set(k, [ei]); else if (!l.includes(ei)) l.push(ei);
    };
    entries.forEach((e, ei) => {
      for (const w of e.cryptoAddresses) push(this.wallets, canonicalWalletAddress(w.address), ei);
      for (const i of e.identifiers) {
        const v = normId(i.value);
        // Short or digit-free values (e.g. "Russia") would collide by chance.
        if (v.length >= 6 && /\d/.test(v)) push(this.ids, v, ei);
      }
    });
  }

  get entryCount(): number {
    return this.store.size;
  }

  /** Bytes of entry JSON held (for the benchmark's figures). */
  get entryBytes(): number {
    return this.store.byteLength;
  }

  /** Entry `i` of the list given to the constructor, as a new object. */
  entry(i: number): ListEntry {
    return this.store.entry(i);
  }

  screenWallet(address: string): ListEntry[] {
    return (this.wallets.get(canonicalWalletAddress(address)) ?? []).map((i) => this.store.entry(i));
  }

  screenIdentifier(value: string): ListEntry[] {
    return (this.ids.get(normId(value)) ?? []).map((i) => this.store.entry(i));
  }

  /** Hits sorted by score, best first, down to the review threshold. */
  screen(query: ScreeningQuery, options: ScreenOptions = {}): ScreeningHit[] {
    const review = options.reviewThreshold ?? DEFAULT_REVIEW_THRESHOLD;
    type Found = Omit<ScreeningHit, 'entry'>;
    const byEntry = new Map<number, Found>();
    const exact = (ei: number, kind: 'identifier' | 'wallet', note: string) => {
      byEntry.set(ei, { score: 1, kind, factors: { schema: 1, alias: 1, qualifiers: 1 }, notes: [note] });
    };
    const wallets = [...(query.wallets ?? [])];
    // A bare wallet address typed into the name field is still a wallet.
    if (/^[A-Za-z0-9:]{25,}$/.test(query.name.trim())) wallets.push(query.name.trim());
    for (const w of wallets) for (const ei of this.wallets.get(canonicalWalletAddress(w)) ?? []) exact(ei, 'wallet', `wallet ${w}`);
    for (const id of query.identifiers ?? []) for (const ei of this.ids.get(normId(id)) ?? []) exact(ei, 'identifier', `identifier ${id}`);

    const q = normalizeName(query.name);
    if (q.tokens.length) {
      for (const rid of this.index.candidates(q, options.candidates ?? DEFAULT_CANDIDATES)) {
        const rec = this.index.record(rid);
        const entry = this.store.qualifiersOf(rec.entry);
        const prior = byEntry.get(rec.entry);
        if (prior && prior.kind !== 'name') continue;
        const isOrg = isOrgSchema(query.schema) || isOrgSchema(entry.schema) || q.looksLikeOrg || rec.norm.looksLikeOrg;
        const ns = scoreNames(q, rec.norm, isOrg, { knownName });
        if (ns.score <= 0) continue;
        const schema = schemaFactor(query.schema, entry.schema);
        const alias = rec.weak ? PENALTY.weakAlias : 1;
        const qual = qualifierEffect(query, entry);
        let score = ns.score * schema * alias * qual.factor;
        const notes = [...qual.notes];
        // Names made only of very common given / family names (Muhammad Ahmed) need more than the name.
        if (!isOrg && ns.matchedQueryTokens.length && ns.matchedQueryTokens.every((t) => COMMON_NAMES.has(t) || !isStrongPersonToken(t))) {
          if (score > COMMON_NAME_CAP) notes.push('common name only');
          score = Math.min(score, COMMON_NAME_CAP);
        }
        // A one-word weak a.k.a. (a nickname such as 'AMIN') cannot alert on its own.
        if (rec.weak && rec.norm.tokens.filter((t) => t.kindPerson === 'name').length <= 1) score = Math.min(score, WEAK_SINGLE_ALIAS_CAP);
        if (prior && prior.score >= score) continue;
        byEntry.set(rec.entry, {
          score, kind: 'name', matchedName: rec.name, matchedAliasWeak: rec.weak, nameScore: ns,
          factors: { schema, alias, qualifiers: qual.factor }, notes,
        });
      }
    }
    const found = [...byEntry].filter(([, h]) => h.score >= review).sort((a, b) => b[1].score - a[1].score);
    // Only the hits returned are read back from the store.
    return (options.limit ? found.slice(0, options.limit) : found).map(([ei, h]) => ({ entry: this.store.entry(ei), ...h }));
  }

  /** Best score of a query over all lists, 0 when nothing reaches the review threshold. */
  best(query: ScreeningQuery): ScreeningHit | undefined {
    return this.screen(query, { reviewThreshold: 0, limit: 1 })[0];
  }
}

export { DEFAULT_MATCH_THRESHOLD, DEFAULT_REVIEW_THRESHOLD };

/** Score of two names alone, as the screener scores a query against one list name. */
export function scorePair(name1: string, name2: string, schema?: Schema): NameScore {
  const a = normalizeName(name1), b = normalizeName(name2);
  const isOrg = isOrgSchema(schema) || a.looksLikeOrg || b.looksLikeOrg;
  return scoreNames(a, b, isOrg, { knownName });
}
