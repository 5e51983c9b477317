import type { ListEntry, Schema } from '../types';
import { canonicalWalletAddress } from '../importers/crypto';
import { makeToken, normalizeName } from './normalize';
import { COMMON_NAMES } from './name-vocabulary';
import { isPopulationName } from './common-names';
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

export class Screener {
  readonly index: NameIndex;
  private wallets = new Map<string, ListEntry[]>();
  private ids = new Map<string, ListEntry[]>();

  constructor(readonly entries: ListEntry[], options: ScreenerOptions = {}) {
    const exclude = options.nameIndexExclude ?? ((e: ListEntry) => e.list.endsWith('_crypto'));
    this.index = new NameIndex(entries, (e) => !exclude(e));
    const push = (m: Map<string, ListEntry[]>, k: string, e: ListEntry) => {
      const l = m.get(k);
      if (!l) m.set(k, [e]); else if (!l.includes(e)) l.push(e);
    };
    for (const e of entries) {
      for (const w of e.cryptoAddresses) push(this.wallets, canonicalWalletAddress(w.address), e);
      for (const i of e.identifiers) {
        const v = normId(i.value);
        // Short or digit-free values (e.g. "Russia") would collide by chance.
        if (v.length >= 6 && /\d/.test(v)) push(this.ids, v, e);
      }
    }
  }

  screenWallet(address: string): ListEntry[] {
    return this.wallets.get(canonicalWalletAddress(address)) ?? [];
  }

  screenIdentifier(value: string): ListEntry[] {
    return this.ids.get(normId(value)) ?? [];
  }

  /** Hits sorted by score, best first, down to the review threshold. */
  screen(query: ScreeningQuery, options: ScreenOptions = {}): ScreeningHit[] {
    const review = options.reviewThreshold ?? DEFAULT_REVIEW_THRESHOLD;
    const byEntry = new Map<ListEntry, ScreeningHit>();
    const exact = (entry: ListEntry, kind: 'identifier' | 'wallet', note: string) => {
      byEntry.set(entry, { entry, score: 1, kind, factors: { schema: 1, alias: 1, qualifiers: 1 }, notes: [note] });
    };
    const wallets = [...(query.wallets ?? [])];
    // A bare wallet address typed into the name field is still a wallet.
    if (/^[A-Za-z0-9:]{25,}$/.test(query.name.trim())) wallets.push(query.name.trim());
    for (const w of wallets) for (const e of this.screenWallet(w)) exact(e, 'wallet', `wallet ${w}`);
    for (const id of query.identifiers ?? []) for (const e of this.screenIdentifier(id)) exact(e, 'identifier', `identifier ${id}`);

    const q = normalizeName(query.name);
    if (q.tokens.length) {
      for (const rid of this.index.candidates(q, options.candidates ?? DEFAULT_CANDIDATES)) {
        const rec = this.index.records[rid]!;
        const entry = this.entries[rec.entry]!;
        const prior = byEntry.get(entry);
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
        byEntry.set(entry, {
          entry, score, kind: 'name', matchedName: rec.name, matchedAliasWeak: rec.weak, nameScore: ns,
          factors: { schema, alias, qualifiers: qual.factor }, notes,
        });
      }
    }
    const hits = [...byEntry.values()].filter((h) => h.score >= review).sort((a, b) => b.score - a.score);
    return options.limit ? hits.slice(0, options.limit) : hits;
  }

  /** Best score of a query over all lists, 0 when nothing reaches the review threshold. */
  best(query: ScreeningQuery): ScreeningHit | undefined {
    return this.screen(query, { reviewThreshold: 0 })[0];
  }
}

export { DEFAULT_MATCH_THRESHOLD, DEFAULT_REVIEW_THRESHOLD };

/** Score of two names alone, as the screener scores a query against one list name. */
export function scorePair(name1: string, name2: string, schema?: Schema): NameScore {
  const a = normalizeName(name1), b = normalizeName(name2);
  const isOrg = isOrgSchema(schema) || a.looksLikeOrg || b.looksLikeOrg;
  return scoreNames(a, b, isOrg, { knownName });
}
