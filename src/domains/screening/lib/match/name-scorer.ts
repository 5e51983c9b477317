import { makeToken, type NameToken, type NormalizedName } from './normalize';
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
  rule?: 'partial-name' | 'contained-name';
}

/** Token pairs below this similarity are not aligned at all. */
export const MIN_TOKEN_SIMILARITY = 0.55;
/** Fused neighbours only count when they are spelled almost the same as the single token. */
export const MIN_JOINED_SIMILARITY = 0.88;
/** A single distinctive token against a longer name is at most a review, never a match. */
export const PARTIAL_NAME_CAP = 0.72;
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

/**
 * Aligns the tokens of two names one-to-one (order free, adjacent tokens may merge) and blends
 * the weighted coverage of both sides. Weak tokens (legal forms, titles, particles) weigh little.
 */
export function scoreNames(q: NormalizedName, c: NormalizedName, isOrg: boolean): NameScore {
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
      if (s < 1 && !joined && WEAK_KINDS.has(a.tok.kindOrg) !== WEAK_KINDS.has(b.tok.kindOrg)) continue;
      if (s >= (joined ? MIN_JOINED_SIMILARITY : MIN_TOKEN_SIMILARITY)) cands.push({ s, q: a, c: b });
    }
  }
  cands.sort((x, y) => y.s - x.s || (y.q.weight + y.c.weight) - (x.q.weight + x.c.weight));
  const usedQ = new Uint8Array(qt.length), usedC = new Uint8Array(ct.length);
  const qSim = new Float64Array(qt.length), cSim = new Float64Array(ct.length);
  const pairs: TokenPairing[] = [];
  let matchedStrongUnits = 0;
  for (const { s, q: a, c: b } of cands) {
    if (a.idx.some((i) => usedQ[i]) || b.idx.some((i) => usedC[i])) continue;
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
  if (cAllFound && cStrong >= 2 && cStrongWeight >= 1.8 && candidateCoverage >= 0.9) {
    const lifted = candidateCoverage * 0.95;
    if (lifted > score) { score = lifted; rule = 'contained-name'; }
  }
  return {
    score: Math.max(0, Math.min(1, score)), queryCoverage,
    matchedQueryTokens: qt.filter((_, i) => usedQ[i]).map((t) => t.text), candidateCoverage, pairs,
    unmatchedQuery: qt.filter((_, i) => !usedQ[i]).map((t) => t.text),
    unmatchedCandidate: ct.filter((_, i) => !usedC[i]).map((t) => t.text),
    ...(rule ? { rule } : {}),
  };
}
