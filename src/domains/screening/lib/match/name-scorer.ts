import { makeToken, skeleton, type NameToken, type NormalizedName } from './normalize';
import { tokenSimilarity } from './token-similarity';

export interface TokenPairing {
  query: string;
  candidate: string;
  similarity: number;
}

export interface NameScore {
  score: number;
  /** weighted share of the query name found in the candidate */
  queryCoverage: number;
  /** weighted share of the candidate name found in the query */
  candidateCoverage: number;
  pairs: TokenPairing[];
  matchedQueryTokens: string[];
  unmatchedQuery: string[];
  unmatchedCandidate: string[];
  /** rule that capped or lifted the blended score, if any */
  rule?: 'partial-name' | 'contained-name' | 'name-conflict';
  /** person-name pairs judged to be different names rather than spelling variants ("mary" / "mark") */
  conflicts?: TokenPairing[];
}

export interface ScoreOptions {
  /** true when a query token is itself an established name (seen in list names or a name dictionary) */
  knownName?: (text: string) => boolean;
}

/** Token pairs below this similarity are not aligned at all. */
export const MIN_TOKEN_SIMILARITY = 0.55;
/** Fused neighbours only count when they are spelled almost the same as the single token. */
export const MIN_JOINED_SIMILARITY = 0.88;
/** A single distinctive token against a longer name is at most a review, never a match. */
export const PARTIAL_NAME_CAP = 0.72;
/** A person hit that rests on a different name in place of one of the query's names is a review at most. */
export const NAME_CONFLICT_CAP = 0.8;
/** Query weight share for persons: list names carry middle names and patronymics a query often lacks. */
const ALPHA_PERSON = 0.65;
const ALPHA_ORG = 0.55;

interface Unit { idx: number[]; tok: NameToken; weight: number }

/** Only a short part or a particle is written fused with its neighbour ("binladen", "alqaeda", "jinping"). */
const JOIN_PREFIXES = new Set(['abd', 'abdul', 'abdel', 'abdal', 'abdoul', 'abdur', 'abdel', 'nur', 'nasr', 'saif', 'sayf', 'shams', 'zain', 'zayn']);

export function joinable(a: NameToken, b: NameToken): boolean {
  return a.text.length <= 3 || b.text.length <= 3 || a.kindPerson === 'particle' || b.kindPerson === 'particle' || JOIN_PREFIXES.has(a.text);
}

const WEAK_KINDS = new Set(['legal', 'title', 'stop', 'suffix']);

function units(tokens: NameToken[], weights: number[]): Unit[] {
  const out: Unit[] = tokens.map((tok, i) => ({ idx: [i], tok, weight: weights[i]! }));
  // Adjacent pairs joined, so "bin laden" ~ "binladen" and "abdul rahman" ~ "abdulrahman".
  for (let i = 0; i + 1 < tokens.length; i++) {
    const a = tokens[i]!, b = tokens[i + 1]!;
    if (!joinable(a, b)) continue;
    out.push({ idx: [i, i + 1], tok: makeToken(a.text + b.text, a.abjad || b.abjad), weight: weights[i]! + weights[i + 1]! });
  }
  return out;
}

const strong = (t: NameToken, isOrg: boolean) => (isOrg ? t.kindOrg : t.kindPerson) === 'name';

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

/**
 * Masculine / feminine forms of one given name (Francesco / Francesca, Mario / Maria): same length,
 * ending in different vowels, one of them "a". Typos rarely swap exactly the final vowel.
 */
export function genderVariant(a: string, b: string): boolean {
  if (a.length !== b.length || a.length < 4) return false;
  const x = a[a.length - 1]!, y = b[b.length - 1]!;
  return x !== y && VOWELS.has(x) && VOWELS.has(y) && (x === 'a' || y === 'a');
}

/**
 * Whether an aligned pair of different person-name tokens is two different names rather than one
 * name misspelled: a gender variant, or a query token that is itself an established name and that
 * differs from the listed one in more than its vowels (Sarah / Siraaj, Allen / Aven; not Mohammed / Muhammad).
 */
export function nameConflict(q: NameToken, c: NameToken, s: number, knownName?: (text: string) => boolean): boolean {
  if (s >= 0.97 || q.text.length < 2 || c.text.length < 2 || q.abjad || c.abjad) return false;
  if (!knownName?.(q.text)) return false;
  if (genderVariant(q.text, c.text)) return true;
  // Vowel-only differences are transliteration variants (Mohammed / Muhammad, Omar / Umar).
  return skeleton(q.fold) !== skeleton(c.fold);
}

/**
 * Aligns the tokens of two names one-to-one (order free, adjacent tokens may merge) and blends
 * the weighted coverage of both sides. Weak tokens (legal forms, titles, particles) weigh little.
 */
export function scoreNames(q: NormalizedName, c: NormalizedName, isOrg: boolean, options: ScoreOptions = {}): NameScore {
  const qt = q.tokens, ct = c.tokens;
  const empty: NameScore = { score: 0, queryCoverage: 0, candidateCoverage: 0, pairs: [], matchedQueryTokens: [], unmatchedQuery: qt.map((t) => t.text), unmatchedCandidate: ct.map((t) => t.text) };
  if (!qt.length || !ct.length) return empty;
  const wOf = (t: NameToken) => (isOrg ? t.weightOrg : t.weightPerson);
  const qw = qt.map(wOf), cw = ct.map(wOf);
  const qu = units(qt, qw), cu = units(ct, cw);
  const cands: { s: number; q: Unit; c: Unit }[] = [];
  for (const a of qu) {
    for (const b of cu) {
      if (a.idx.length > 1 && b.idx.length > 1) continue;
      const joined = a.idx.length > 1 || b.idx.length > 1;
      const s = tokenSimilarity(a.tok, b.tok, joined);
      // A legal form or title only ever stands for itself: "luca" is not "llc".
      // Honorifics that are also names (Amir, Hafiz, Mufti, Haji) may be misspelt into a plain name.
      if (s < 1 && !joined && WEAK_KINDS.has(a.tok.kindOrg) !== WEAK_KINDS.has(b.tok.kindOrg)
        && !(!isOrg && s >= 0.8 && (a.tok.kindPerson === 'title' || b.tok.kindPerson === 'title'))) continue;
      if (s >= (joined ? MIN_JOINED_SIMILARITY : MIN_TOKEN_SIMILARITY)) cands.push({ s, q: a, c: b });
    }
  }
  cands.sort((x, y) => y.s - x.s || (y.q.weight + y.c.weight) - (x.q.weight + x.c.weight));
  const usedQ = new Uint8Array(qt.length), usedC = new Uint8Array(ct.length);
  const qSim = new Float64Array(qt.length), cSim = new Float64Array(ct.length);
  const pairs: TokenPairing[] = [];
  let matchedStrongUnits = 0;
  // Person names: fuzzy pairs whose query token is an established name, other fuzzy pairs, and
  // exact pairs on distinctive (not established) names, to tell a typo from a different name.
  const knownFuzzy: { pair: TokenPairing; q: NameToken; c: NameToken; s: number }[] = [];
  let fuzzyStrong = 0, exactDistinctive = 0;
  const known = options.knownName;
  // A person's name (no legal form in the query) against a vessel or company name is judged the same way.
  const personLike = !isOrg || !q.looksLikeOrg;
  for (const { s, q: a, c: b } of cands) {
    if (a.idx.some((i) => usedQ[i]) || b.idx.some((i) => usedC[i])) continue;
    if (personLike && known && strong(a.tok, isOrg) && strong(b.tok, isOrg)) {
      const single = a.idx.length === 1 && b.idx.length === 1;
      if (s >= 0.97) { if (!single || a.tok.translit || !known(a.tok.text)) exactDistinctive++; }
      else {
        fuzzyStrong++;
        // A spelling we transliterated ourselves (either side) says nothing about which name was meant.
        if (single && !a.tok.translit && !b.tok.translit && known(a.tok.text)) knownFuzzy.push({ pair: { query: a.tok.text, candidate: b.tok.text, similarity: Math.round(s * 1000) / 1000 }, q: a.tok, c: b.tok, s });
      }
    }
    if (a.idx.some((i) => strong(qt[i]!, isOrg)) || b.idx.some((i) => strong(ct[i]!, isOrg))) matchedStrongUnits++;
    for (const i of a.idx) { usedQ[i] = 1; qSim[i] = s; }
    for (const i of b.idx) { usedC[i] = 1; cSim[i] = s; }
    pairs.push({ query: a.tok.text, candidate: b.tok.text, similarity: Math.round(s * 1000) / 1000 });
  }
  let qTot = 0, qHit = 0, cTot = 0, cHit = 0;
  qt.forEach((_, i) => { qTot += qw[i]!; qHit += qw[i]! * qSim[i]!; });
  ct.forEach((_, i) => { cTot += cw[i]!; cHit += cw[i]! * cSim[i]!; });
  const queryCoverage = qTot ? qHit / qTot : 0;
  const candidateCoverage = cTot ? cHit / cTot : 0;
  const alpha = isOrg ? ALPHA_ORG : ALPHA_PERSON;
  let score = alpha * queryCoverage + (1 - alpha) * candidateCoverage;
  let rule: NameScore['rule'];

  const cStrong = ct.filter((t) => strong(t, isOrg)).length;
  const unmatchedStrong = qt.filter((t, i) => strong(t, isOrg) && !usedQ[i]).length + ct.filter((t, i) => strong(t, isOrg) && !usedC[i]).length;
  if (matchedStrongUnits <= 1 && unmatchedStrong >= 1 && score > PARTIAL_NAME_CAP) {
    score = PARTIAL_NAME_CAP;
    rule = 'partial-name';
  }
  // A distinctive listed name found whole inside a longer query (free-text fields, "payment for X").
  const cStrongWeight = ct.reduce((a, t, i) => a + (strong(t, isOrg) ? cw[i]! : 0), 0);
  const cAllFound = ct.every((t, i) => cw[i]! < 0.3 || cSim[i]! >= 0.9);
  // Two separate query units at least: one fused query word ("gudrun") is not "GOOD RUN" found in a text.
  if (cAllFound && cStrong >= 2 && matchedStrongUnits >= 2 && cStrongWeight >= 1.8 && candidateCoverage >= 0.9) {
    const lifted = candidateCoverage * 0.95;
    if (lifted > score) { score = lifted; rule = 'contained-name'; }
  }
  // A typo leaves one name misspelt and the others exact; an established name in place of a listed
  // one, next to nothing but other established names or other near misses, is a different person.
  const conflicts = knownFuzzy
    .filter((k) => nameConflict(k.q, k.c, k.s, known) || fuzzyStrong >= 2 || exactDistinctive === 0)
    .map((k) => k.pair);
  if (conflicts.length && score > NAME_CONFLICT_CAP) {
    score = NAME_CONFLICT_CAP;
    rule = 'name-conflict';
  }
  return {
    score: Math.max(0, Math.min(1, score)), queryCoverage,
    matchedQueryTokens: qt.filter((_, i) => usedQ[i]).map((t) => t.text), candidateCoverage, pairs,
    unmatchedQuery: qt.filter((_, i) => !usedQ[i]).map((t) => t.text),
    unmatchedCandidate: ct.filter((_, i) => !usedC[i]).map((t) => t.text),
    ...(rule ? { rule } : {}),
    ...(conflicts.length ? { conflicts } : {}),
  };
}
