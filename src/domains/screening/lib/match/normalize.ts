import anyAscii from 'any-ascii';
import { doubleMetaphone } from 'double-metaphone';
import {
  COMMON_NAMES, COMMON_NAME_WEIGHT, KIND_WEIGHT, LEGAL_PHRASES, canonicalToken, isPatronymic, tokenKind, type TokenKind,
} from './name-vocabulary';

export interface NameToken {
  /** lower-case ASCII token */
  text: string;
  /** spelling-variant fold used for edit distance (ks->x, ph->f, y->i, doubles collapsed ...) */
  fold: string;
  /** consonant skeleton, compared when one side comes from a script that omits vowels */
  skel: string;
  phon: [string, string];
  /** token came from Arabic, Hebrew, Thai or Syriac script (vowels mostly unwritten) */
  abjad: boolean;
  /** token was transliterated from a non-Latin script here: its Latin spelling is ours, not the writer's */
  translit: boolean;
  kindPerson: TokenKind;
  kindOrg: TokenKind;
  weightPerson: number;
  weightOrg: number;
}

export interface NormalizedName {
  raw: string;
  tokens: NameToken[];
  /** the name itself carries a legal form, so it is an organisation whatever the schema says */
  looksLikeOrg: boolean;
}

const ABJAD = /[\u0590-\u05FF\u0600-\u06FF\u0700-\u074F\u0750-\u077F\u08A0-\u08FF\u0E00-\u0E7F\uFB50-\uFDFF\uFE70-\uFEFF]/;
const SYLLABIC = /[\u3040-\u30FF\u3400-\u9FFF\uAC00-\uD7AF\u1100-\u11FF\uF900-\uFAFF]/;
const LATIN = /[A-Za-z]/;
const CYR_GREEK = /[\u0370-\u03FF\u0400-\u04FF]/;

/** Cyrillic / Greek letters that look like Latin ones, for tokens that mix scripts (spoofing). */
const HOMOGLYPHS: Record<string, string> = {
  'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'і': 'i', 'ј': 'j', 'ѕ': 's', 'к': 'k', 'м': 'm',
  'т': 't', 'в': 'b', 'н': 'h', 'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C',
  'Т': 'T', 'Х': 'X', 'І': 'I', 'У': 'Y', 'Ј': 'J', 'Ѕ': 'S', 'ο': 'o', 'α': 'a', 'ε': 'e', 'ι': 'i', 'κ': 'k', 'ν': 'v',
  'ρ': 'p', 'τ': 't', 'υ': 'u', 'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O',
  'Ρ': 'P', 'Τ': 'T', 'Χ': 'X', 'Υ': 'Y', 'Ζ': 'Z',
};

/** Spelling variants of transliteration systems folded together before edit distance. */
const FOLDS: [RegExp, string][] = [
  [/dzh/g, 'j'], [/tch/g, 'ch'], [/sch/g, 'sh'], [/ph/g, 'f'], [/ck/g, 'k'], [/ks/g, 'x'], [/q/g, 'k'],
  [/c(?=[aou]|$)/g, 'k'], [/w/g, 'v'], [/ou/g, 'u'], [/oo/g, 'u'], [/ee/g, 'i'], [/y/g, 'i'], [/(.)\1+/g, '$1'],
];

export function foldToken(t: string): string {
  let s = t;
  for (const [re, to] of FOLDS) s = s.replace(re, to);
  return s;
}

export function skeleton(t: string): string {
  const s = t.replace(/^[wy]/, (c) => c.toUpperCase()).replace(/[aeiouwy]/g, '').toLowerCase();
  return s.replace(/(.)\1+/g, '$1');
}

function despoof(word: string): string {
  if (!(LATIN.test(word) && CYR_GREEK.test(word))) return word;
  return [...word].map((c) => HOMOGLYPHS[c] ?? c).join('');
}

interface RawToken { text: string; abjad: boolean; translit: boolean }

function asciiTokens(raw: string): RawToken[] {
  const out: RawToken[] = [];
  for (const word0 of raw.normalize('NFKC').split(/\s+/)) {
    if (!word0) continue;
    const word = despoof(word0);
    const abjad = ABJAD.test(word);
    const translit = /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u.test(word);
    let ascii = anyAscii(word);
    // any-ascii capitalises each CJK / Hangul syllable: split there so syllables become tokens.
    if (SYLLABIC.test(word)) ascii = ascii.replace(/([a-z])(?=[A-Z])/g, '$1 ');
    ascii = ascii.toLowerCase().replace(/['`\u2018\u2019"]/g, '').replace(/\./g, '').replace(/[^a-z0-9]+/g, ' ');
    for (const t of ascii.split(' ')) if (t) out.push({ text: t, abjad, translit });
  }
  return out;
}

/** Legal phrases indexed by their first word, so most tokens cost one map lookup. */
const PHRASES_BY_FIRST = new Map<string, { words: string[]; to: string }[]>();
for (const [phrase, to] of LEGAL_PHRASES) {
  const words = phrase.split(' ').map(canonicalToken);
  const list = PHRASES_BY_FIRST.get(words[0]!) ?? [];
  list.push({ words, to });
  PHRASES_BY_FIRST.set(words[0]!, list);
}

function foldPhrases(tokens: RawToken[]): RawToken[] {
  const canon = tokens.map((t) => canonicalToken(t.text));
  const out: RawToken[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const phrase = PHRASES_BY_FIRST.get(canon[i]!)?.find(({ words }) => words.every((w, k) => canon[i + k] === w));
    if (phrase) {
      out.push({ text: phrase.to, abjad: false, translit: false });
      i += phrase.words.length - 1;
    } else {
      out.push({ text: canon[i]!, abjad: tokens[i]!.abjad, translit: tokens[i]!.translit });
    }
  }
  return out;
}

const cache = new Map<string, NameToken>();
const TOKEN_CACHE_LIMIT = 100_000;

export function makeToken(text: string, abjad = false, translit = abjad): NameToken {
  const key = `${abjad ? '1' : '0'}${translit ? '1' : '0'}${text}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const common = COMMON_NAMES.has(text);
  const kindPerson = tokenKind(text, false);
  const kindOrg = tokenKind(text, true);
  const nameWeight = (kind: TokenKind, patronymicAware: boolean) => {
    if (kind !== 'name') return KIND_WEIGHT[kind];
    if (/^\d+$/.test(text)) return 0.6;
    let w = common ? COMMON_NAME_WEIGHT : 1;
    if (patronymicAware && isPatronymic(text)) w = Math.min(w, 0.35);
    return w;
  };
  const [p1, p2] = doubleMetaphone(text);
  const token: NameToken = {
    text, fold: foldToken(text), skel: skeleton(text), phon: [p1, p2], abjad, translit,
    kindPerson, kindOrg, weightPerson: nameWeight(kindPerson, true), weightOrg: nameWeight(kindOrg, false),
  };
  // A memo, not a store (the name index keeps its own tokens): emptied when full, so that the
  // tokens of years of queries do not pile up in a long-running process.
  if (cache.size >= TOKEN_CACHE_LIMIT) cache.clear();
  cache.set(key, token);
  return token;
}

/** The name itself carries a legal form (the short ones that are also particles aside). */
export function looksLikeOrg(tokens: readonly NameToken[]): boolean {
  return tokens.some((t) => t.kindOrg === 'legal' && t.text.length > 1 && !['de', 'as', 'at', 'ad', 'ag', 'e', 'y'].includes(t.text));
}

/** Lower-case, transliterated, punctuation-free tokens with their weights and comparison keys. */
export function normalizeName(raw: string): NormalizedName {
  const tokens = foldPhrases(asciiTokens(raw)).map((t) => makeToken(t.text, t.abjad, t.translit));
  return { raw, tokens, looksLikeOrg: looksLikeOrg(tokens) };
}

/** Plain normalised form for display and exact comparison. */
export function normalizedText(raw: string): string {
  return normalizeName(raw).tokens.map((t) => t.text).join(' ');
}
