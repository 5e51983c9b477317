import { distance } from 'fastest-levenshtein';
import type { NameToken } from './normalize';

// Reused match flags: this runs thousands of times per query and allocation dominated it.
let flagsA = new Uint8Array(64), flagsB = new Uint8Array(64);

export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  const la = a.length, lb = b.length;
  if (!la || !lb) return 0;
  const window = Math.max(0, Math.floor(Math.max(la, lb) / 2) - 1);
  if (la > flagsA.length || lb > flagsB.length) {
    flagsA = new Uint8Array(Math.max(la, lb) * 2);
    flagsB = new Uint8Array(Math.max(la, lb) * 2);
  }
  const ma = flagsA, mb = flagsB;
  ma.fill(0, 0, la);
  mb.fill(0, 0, lb);
  let matches = 0;
  for (let i = 0; i < la; i++) {
    const lo = Math.max(0, i - window), hi = Math.min(lb - 1, i + window);
    for (let j = lo; j <= hi; j++) {
      if (!mb[j] && a.charCodeAt(i) === b.charCodeAt(j)) { ma[i] = 1; mb[j] = 1; matches++; break; }
    }
  }
  if (!matches) return 0;
  let t = 0, k = 0;
  for (let i = 0; i < la; i++) {
    if (!ma[i]) continue;
    while (!mb[k]) k++;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) t++;
    k++;
  }
  const jaro = (matches / la + matches / lb + (matches - t / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < la && prefix < lb && a[prefix] === b[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/** True when b is a with one pair of neighbouring letters swapped ("hcen" / "chen"). */
function isTransposition(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i + 1 < a.length && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

/** 1 - edit distance / longer length, counting a swap of neighbours as one edit (Damerau). */
export function editSimilarity(a: string, b: string): number {
  const max = Math.max(a.length, b.length);
  if (!max) return 1;
  return 1 - (isTransposition(a, b) ? 1 : distance(a, b)) / max;
}

function phoneticEqual(a: NameToken, b: NameToken): boolean {
  const [a1, a2] = a.phon, [b1, b2] = b.phon;
  if (!a1 || !b1 || a1.length < 2) return false;
  return a1 === b1 || a1 === b2 || a2 === b1;
}

/**
 * Similarity of two name tokens in [0,1]: exact 1; spelling-variant fold 0.97; abjad consonant
 * skeletons; otherwise a Levenshtein-ratio-led blend with Jaro-Winkler, raised when the
 * Double Metaphone codes agree. Short tokens get little benefit of the doubt.
 */
export function tokenSimilarity(q: NameToken, c: NameToken, joined = false): number {
  if (q.text === c.text) return 1;
  const lq = q.text.length, lc = c.text.length;
  if (lq === 1 || lc === 1) {
    // An initial stands for any name starting with that letter.
    return lq === 1 && lc === 1 ? 0 : q.text[0] === c.text[0] ? 0.85 : 0;
  }
  if (q.abjad !== c.abjad) {
    if (!q.skel || !c.skel) return 0;
    // Two-consonant skeletons (s-f, m-r) are shared by too many unrelated names to be trusted.
    if (q.skel === c.skel) {
      const latin = q.abjad ? c : q;
      return q.skel.length >= 3 || latin.text.length <= 4 ? 0.95 : 0.75;
    }
    return Math.max(0, editSimilarity(q.skel, c.skel) * 0.9);
  }
  if (q.fold === c.fold) return 0.97;
  const a = q.fold, b = c.fold;
  const ed = editSimilarity(a, b);
  let s = 0.65 * ed + 0.35 * jaroWinkler(a, b);
  // A typo can trip a spelling fold on one side only ("eena" folds to "ina", "cuhn" to "kuhn"):
  // the spelling as written then shows the single edit better. Only worth it when the folds are
  // two or more edits apart and the written forms are within one edit of each other in length.
  if ((1 - ed) * Math.max(a.length, b.length) > 1.5 && Math.abs(q.text.length - c.text.length) <= 1
    && (a !== q.text || b !== c.text)) {
    s = Math.max(s, 0.65 * editSimilarity(q.text, c.text) + 0.35 * jaroWinkler(q.text, c.text));
  }
  const minLen = Math.min(a.length, b.length);
  // Fused tokens ("binladen") must agree in spelling: sound-alike on a whole name is too loose.
  if (joined) return s;
  // Sound-alike lifts near misses only: unrelated spellings can share a Metaphone code.
  if (s >= 0.62 && phoneticEqual(q, c)) s = Math.max(s, minLen >= 5 ? 0.88 : minLen >= 4 ? 0.84 : 0.8);
  if (minLen >= 3 && (a.startsWith(b) || b.startsWith(a))) s = Math.max(s, 0.8);
  if (Math.max(a.length, b.length) <= 4) s = Math.min(s, 0.8);
  return s;
}
