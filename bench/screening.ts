/**
 * Screening benchmark (not a test): load time, memory, throughput and latency on one core with
 * every list loaded, and match quality on the dev cases, a typo set of listed persons and a set
 * of generated non-listed persons. Prints one JSON object per line.
 */
import { resolve } from 'node:path';
import { loadAllLists, defaultSanctionsDir } from '../src/domains/screening/lib/load-all';
import { Screener, scorePair } from '../src/domains/screening/lib/match/screener';
import { normalizedText } from '../src/domains/screening/lib/match/normalize';
import { DEFAULT_MATCH_THRESHOLD } from '../src/domains/screening/lib/match/thresholds';
import { isPopulationName } from '../src/domains/screening/lib/match/common-names';
import { evaluateDevCases } from '../test/unit/screening/dev-cases';
import type { ListEntry } from '../src/domains/screening/lib/types';

const out = (o: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(o)}\n`);
const devDir = resolve(defaultSanctionsDir(), '..', 'screening-dev-cases');

/** Deterministic PRNG (mulberry32) so the generated sets are the same on every run. */
function rng(seed: number) {
  return () => {
    seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function typo(name: string, rand: () => number): string {
  const words = name.split(' ');
  const long = words.map((w, i) => [w, i] as const).filter(([w]) => w.length >= 4);
  if (!long.length) return name;
  const [w, i] = long[Math.floor(rand() * long.length)]!;
  const p = 1 + Math.floor(rand() * (w.length - 1));
  const kind = Math.floor(rand() * 4);
  // A substitution by the same letter would be no typo at all.
  let c = LETTERS[Math.floor(rand() * 26)]!;
  while (kind === 2 && c === w[p]!.toLowerCase()) c = LETTERS[Math.floor(rand() * 26)]!;
  const edited = kind === 0 ? w.slice(0, p) + c + w.slice(p)
    : kind === 1 ? w.slice(0, p) + w.slice(p + 1)
      : kind === 2 ? w.slice(0, p) + c + w.slice(p + 1)
        : w.slice(0, p - 1) + w[p] + w[p - 1] + w.slice(p + 1);
  words[i] = edited;
  return words.join(' ');
}

const FIRST = ['James', 'Mary', 'Robert', 'Patricia', 'Michael', 'Jennifer', 'William', 'Linda', 'David', 'Elizabeth',
  'Richard', 'Barbara', 'Joseph', 'Susan', 'Thomas', 'Jessica', 'Charles', 'Sarah', 'Christopher', 'Karen', 'Daniel',
  'Lisa', 'Matthew', 'Nancy', 'Anthony', 'Betty', 'Mark', 'Sandra', 'Paul', 'Ashley', 'Steven', 'Emily', 'Andrew', 'Donna',
  'Kenneth', 'Michelle', 'Joshua', 'Carol', 'Kevin', 'Amanda', 'Brian', 'Melissa', 'George', 'Deborah', 'Timothy', 'Laura',
  'Giulia', 'Marco', 'Francesca', 'Luca', 'Chiara', 'Matteo', 'Sofia', 'Lorenzo', 'Hans', 'Klaus', 'Ingrid', 'Pierre',
  'Camille', 'Juan', 'Lucia', 'Pablo', 'Carmen', 'Olga', 'Igor', 'Natalia', 'Piotr', 'Agnieszka', 'Wei', 'Mei', 'Hiroshi',
  'Yuki', 'Priya', 'Rahul', 'Fatima', 'Omar', 'Aisha', 'Yusuf', 'Leila', 'Emeka', 'Ngozi', 'Kwame', 'Ama', 'Lars', 'Astrid',
  'Sven', 'Eva', 'Joao', 'Ana', 'Tomasz', 'Katarzyna', 'Nikos', 'Eleni', 'Mehmet', 'Ayse', 'Arjun', 'Sanjay', 'Mateo', 'Valentina'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Miller', 'Davis', 'Wilson', 'Anderson', 'Taylor', 'Thomas',
  'Moore', 'Jackson', 'Martin', 'Thompson', 'White', 'Harris', 'Clark', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen',
  'King', 'Wright', 'Scott', 'Green', 'Baker', 'Adams', 'Nelson', 'Hill', 'Campbell', 'Mitchell', 'Roberts', 'Carter',
  'Phillips', 'Evans', 'Turner', 'Parker', 'Collins', 'Edwards', 'Stewart', 'Morris', 'Rossi', 'Russo', 'Ferrari', 'Esposito',
  'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Muller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer',
  'Dubois', 'Durand', 'Lefebvre', 'Moreau', 'Fernandez', 'Gomez', 'Diaz', 'Alvarez', 'Romero', 'Navarro', 'Kowalski',
  'Nowak', 'Wisniewski', 'Novak', 'Svoboda', 'Horvat', 'Kovacs', 'Nagy', 'Jensen', 'Nielsen', 'Hansen', 'Johansson',
  'Larsson', 'Silva', 'Santos', 'Oliveira', 'Pereira', 'Costa', 'Tanaka', 'Suzuki', 'Watanabe', 'Sato', 'Patel', 'Sharma',
  'Gupta', 'Okafor', 'Mensah', 'Yilmaz', 'Kaya', 'Papadopoulos', 'Virtanen', 'Murphy', 'Kelly', 'OConnor', 'Byrne'];

/**
 * Held-out population names, none of them in the matcher's common-name dictionary (checked at run
 * time): the generated set above draws from names the dictionary knows, so this set shows how the
 * matcher does on ordinary names it has no prior for.
 */
const HELD_OUT_FIRST = ['Gianluca', 'Ottavio', 'Tiziana', 'Ornella', 'Rocco', 'Loredana', 'Benedikt', 'Wiebke', 'Gudrun',
  'Thibault', 'Margaux', 'Ignacio', 'Remedios', 'Bartosz', 'Grazyna', 'Radek', 'Zdenka', 'Bogdan', 'Ludovica', 'Tancredi',
  'Siobhan', 'Declan', 'Aoife', 'Niamh', 'Cormac', 'Eamon', 'Wendell', 'Delphine', 'Anneliese', 'Horst', 'Vittoria',
  'Annunziata', 'Carmelo', 'Filippa', 'Dragan', 'Milena', 'Zoltan', 'Ildiko', 'Ruairi', 'Torsten'];
const HELD_OUT_LAST = ['Pellegrini', 'Cattaneo', 'Sartori', 'Benedetti', 'Bellini', 'Guerrini', 'Morandi', 'Zanetti',
  'Castelli', 'Farinelli', 'Baumgartner', 'Eichhorn', 'Vogelsang', 'Brandauer', 'Lemaire', 'Beaulieu', 'Charpentier',
  'Etxeberria', 'Iglesias', 'Valderrama', 'Grabowski', 'Pietrzak', 'Jablonski', 'Kubiak', 'Dvorakova', 'Prochazka',
  'Brennan', 'Gallagher', 'Donnelly', 'Fitzgerald', 'Halloran', 'Whitaker', 'Ashworth', 'Pemberton', 'Lindgren',
  'Sandberg', 'Holmqvist', 'Bergstrom', 'Kuusisto', 'Rautio'];

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * What a Screener keeps once the entries it was built from are gone, as in the server (entries
 * parsed from PostgreSQL, then dropped): heap and off-heap bytes after a full collection. Needs
 * --expose-gc (npm run bench:screening passes it); without it, undefined.
 */
function screenerMemory(entries: ListEntry[]): { screenerHeapMB?: number; screenerExternalMB?: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return {};
  const json = JSON.stringify(entries);
  const settled = () => { gc(); gc(); const m = process.memoryUsage(); return { heap: m.heapUsed, external: m.external }; };
  const before = settled();
  let copy: ListEntry[] | undefined = JSON.parse(json) as ListEntry[];
  const screener = new Screener(copy);
  copy = undefined;
  const after = settled();
  // Keep the screener alive until it has been measured.
  if (!screener.entryCount) return {};
  return { screenerHeapMB: +((after.heap - before.heap) / 1e6).toFixed(1), screenerExternalMB: +((after.external - before.external) / 1e6).toFixed(1) };
}

async function main() {
  const t0 = performance.now();
  const loaded = await loadAllLists();
  const tLoad = performance.now() - t0;
  // First, in a process that has built no screener yet: its token cache is counted too.
  const retained = screenerMemory(loaded.entries);
  const t1 = performance.now();
  const screener = new Screener(loaded.entries);
  const tIndex = performance.now() - t1;
  const mem = process.memoryUsage();
  out({
    metric: 'load', lists: Object.fromEntries(Object.entries(loaded.lists).map(([k, v]) => [k, v.length])),
    entries: loaded.entries.length, nameRecords: screener.index.recordCount, importMs: Math.round(tLoad),
    indexMs: Math.round(tIndex), heapUsedMB: Math.round(mem.heapUsed / 1e6), rssMB: Math.round(mem.rss / 1e6),
  });
  out({ metric: 'screener_memory', ...retained, vocabulary: screener.index.vocabularySize, keys: screener.index.keyCount, entryJsonMB: +(screener.entryBytes / 1e6).toFixed(1) });

  const dev = evaluateDevCases(screener, devDir);
  out({ metric: 'ofac_test_cases', threshold: DEFAULT_MATCH_THRESHOLD, ...dev.ofac.summary, misses: dev.ofac.misses });
  out({ metric: 'cross_script', ...dev.crossScript.summary, failures: dev.crossScript.failures });
  out({ metric: 'ofac_sls_fixtures', ...dev.sls });

  // Typo set: one random edit in one token of listed persons' primary names.
  const rand = rng(20240503);
  const persons = loaded.entries.filter((e) => e.schema === 'Person' && /^[\x20-\x7e]+$/.test(e.name) && e.name.split(/[\s,]+/).filter(Boolean).length >= 2);
  const typoSet: { q: string; entry: ListEntry }[] = [];
  const seen = new Set<string>();
  while (typoSet.length < 2000 && seen.size < persons.length) {
    const e = persons[Math.floor(rand() * persons.length)]!;
    if (seen.has(e.id + e.list)) continue;
    seen.add(e.id + e.list);
    typoSet.push({ q: typo(e.name.replace(/,/g, ''), rand), entry: e });
  }
  // Generated persons: first (+ middle) + last names drawn from frequent population names. One whose
  // first and last name both appear, as written, in one listed person's name IS a listed person's
  // name (a true homonym: only date of birth or nationality can tell them apart), so it is counted
  // apart and not as a false alert. Near spellings (Matteo / Mateo) stay in the non-listed set.
  const personRecords = new Map<string, Set<number>>();
  for (let rid = 0; rid < screener.index.recordCount; rid++) {
    const r = screener.index.record(rid);
    if (loaded.entries[r.entry]!.schema !== 'Person') continue;
    for (const t of r.norm.tokens) {
      const s = personRecords.get(t.text);
      if (s) s.add(rid); else personRecords.set(t.text, new Set([rid]));
    }
  }
  const isHomonym = (first: string, last: string) => {
    const tokens = [...normalizedText(first).split(' '), ...normalizedText(last).split(' ')];
    const sets = tokens.map((t) => personRecords.get(t));
    if (sets.some((s) => !s)) return false;
    const [smallest, ...rest] = [...sets as Set<number>[]].sort((a, b) => a.size - b.size);
    for (const rid of smallest!) if (rest.every((s) => s.has(rid))) return true;
    return false;
  };
  const nonListed: string[] = [];
  const homonyms: string[] = [];
  const generated = Number(process.env.BENCH_NON_LISTED ?? 20000);
  while (nonListed.length + homonyms.length < generated) {
    const f = FIRST[Math.floor(rand() * FIRST.length)]!;
    const l = LAST[Math.floor(rand() * LAST.length)]!;
    const middle = FIRST[Math.floor(rand() * FIRST.length)]!;
    const m = rand() < 0.3 && middle !== f ? ` ${middle}` : '';
    const name = `${f}${m} ${l}`;
    (isHomonym(f, l) ? homonyms : nonListed).push(name);
  }

  const latencies: number[] = [];
  const cpu0 = process.cpuUsage();
  const w0 = performance.now();
  const sourceScores: number[] = [];
  const typoMisses: string[] = [];
  for (const { q, entry } of typoSet) {
    const s = performance.now();
    const hits = screener.screen({ name: q }, { reviewThreshold: 0.6 });
    latencies.push(performance.now() - s);
    const own = hits.find((h) => h.entry.list === entry.list && h.entry.id === entry.id)?.score ?? 0;
    sourceScores.push(own);
    if (own < DEFAULT_MATCH_THRESHOLD && typoMisses.length < 15) typoMisses.push(`${q} <- ${entry.name} (${own.toFixed(3)})`);
  }
  const bestScores: number[] = [];
  const falseAlerts: string[] = [];
  for (const q of nonListed) {
    const s = performance.now();
    const hit = screener.screen({ name: q }, { reviewThreshold: 0.6 })[0];
    latencies.push(performance.now() - s);
    bestScores.push(hit?.score ?? 0);
    if (hit && hit.score >= DEFAULT_MATCH_THRESHOLD && falseAlerts.length < 15) falseAlerts.push(`${q} -> ${hit.matchedName} ${hit.score.toFixed(3)}`);
  }
  // Held-out names: not known to the dictionary, homonyms left out as above.
  const hoFirst = HELD_OUT_FIRST.filter((n) => !isPopulationName(normalizedText(n)));
  const hoLast = HELD_OUT_LAST.filter((n) => !isPopulationName(normalizedText(n)));
  const heldOut: string[] = [];
  while (heldOut.length < 5000) {
    const f = hoFirst[Math.floor(rand() * hoFirst.length)]!, l = hoLast[Math.floor(rand() * hoLast.length)]!;
    if (!isHomonym(f, l)) heldOut.push(`${f} ${l}`);
  }
  const heldOutAlerts: string[] = [];
  let heldOutCount = 0;
  for (const q of heldOut) {
    const hit = screener.screen({ name: q }, { reviewThreshold: 0.6 })[0];
    if (hit && hit.score >= DEFAULT_MATCH_THRESHOLD) { heldOutCount++; if (heldOutAlerts.length < 10) heldOutAlerts.push(`${q} -> ${hit.matchedName} ${hit.score.toFixed(3)}`); }
  }
  let homonymAlerts = 0;
  for (const q of homonyms) {
    const s = performance.now();
    const hit = screener.screen({ name: q }, { reviewThreshold: 0.6 })[0];
    latencies.push(performance.now() - s);
    if (hit && hit.score >= DEFAULT_MATCH_THRESHOLD) homonymAlerts++;
  }
  const found = sourceScores.filter((x) => x >= DEFAULT_MATCH_THRESHOLD).length;
  const alerts = bestScores.filter((x) => x >= DEFAULT_MATCH_THRESHOLD).length;
  const sweep = [0.8, 0.82, 0.85, 0.88, 0.9, 0.92].map((t) => ({
    threshold: t,
    typoRecall: +(sourceScores.filter((x) => x >= t).length / sourceScores.length).toFixed(4),
    falseAlertsPer100k: Math.round((bestScores.filter((x) => x >= t).length / bestScores.length) * 100000),
  }));
  const wall = performance.now() - w0;
  const cpu = process.cpuUsage(cpu0);
  latencies.sort((a, b) => a - b);
  const n = latencies.length;
  out({
    metric: 'throughput', queries: n, namesPerSecond: Math.round(n / (wall / 1000)),
    namesPerCpuSecond: Math.round(n / ((cpu.user + cpu.system) / 1e6)),
    p50ms: +percentile(latencies, 50).toFixed(3), p99ms: +percentile(latencies, 99).toFixed(3), maxMs: +latencies[n - 1]!.toFixed(3),
  });
  out({ metric: 'typo_recall', threshold: DEFAULT_MATCH_THRESHOLD, queries: typoSet.length, recall: +(found / typoSet.length).toFixed(4), sampleMisses: typoMisses });
  out({
    metric: 'false_alerts', threshold: DEFAULT_MATCH_THRESHOLD, queries: nonListed.length, alerts,
    per100k: Math.round((alerts / nonListed.length) * 100000), sample: falseAlerts,
  });
  out({
    metric: 'false_alerts_held_out', threshold: DEFAULT_MATCH_THRESHOLD, queries: heldOut.length, namesUsed: hoFirst.length + hoLast.length,
    alerts: heldOutCount, per100k: Math.round((heldOutCount / heldOut.length) * 100000), sample: heldOutAlerts,
  });
  out({
    metric: 'true_homonyms', threshold: DEFAULT_MATCH_THRESHOLD, queries: homonyms.length, alerts: homonymAlerts,
    distinct: new Set(homonyms).size, sample: [...new Set(homonyms)].slice(0, 10),
  });
  out({ metric: 'threshold_sweep', sweep });
  // Keep the sample pair scorer honest too: identical names must score 1.
  out({ metric: 'sanity', identicalPairScore: scorePair('Usama bin Laden', 'USAMA BIN LADEN').score });
}

await main();
