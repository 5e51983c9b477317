import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { scorePair, type Screener } from '../../../src/domains/screening/lib/match/screener';
import { DEFAULT_MATCH_THRESHOLD } from '../../../src/domains/screening/lib/match/thresholds';

export interface OfacCase { id: string; value: string; expected: string; best: number; matched?: string }
export interface CrossScriptPair { query: string; expected: string; min: number; score: number }

const POSITIVE = new Set(['must_alert', 'should_alert']);
const NEGATIVE = new Set(['must_not_alert']);

/** Reads the dev cases and scores them with the screener (OFAC cases) and the pair scorer (pairs). */
export function evaluateDevCases(screener: Screener, dir: string, threshold = DEFAULT_MATCH_THRESHOLD) {
  const rows = parse(readFileSync(join(dir, 'ofac_test_cases.csv')), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  const cases: OfacCase[] = rows.map((r) => {
    const hit = screener.best({ name: r.test_value! });
    return { id: r.test_id!, value: r.test_value!, expected: r.expected_outcome!, best: hit?.score ?? 0, matched: hit?.matchedName };
  });
  let tp = 0, fp = 0, fn = 0, tn = 0;
  const misses: string[] = [];
  for (const c of cases) {
    const alert = c.best >= threshold;
    if (POSITIVE.has(c.expected)) { if (alert) tp++; else { fn++; misses.push(`${c.id} ${c.value} ${c.best.toFixed(3)} (${c.expected})`); } }
    if (NEGATIVE.has(c.expected)) { if (alert) { fp++; misses.push(`${c.id} ${c.value} ${c.best.toFixed(3)} -> ${c.matched} (${c.expected})`); } else tn++; }
  }
  const precision = tp + fp ? tp / (tp + fp) : 1;
  const recall = tp + fn ? tp / (tp + fn) : 1;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;

  const pairs: CrossScriptPair[] = [];
  for (const line of readFileSync(join(dir, 'cross_script_pairs.csv'), 'utf8').split(/\r?\n/)) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [query, expected, min] = line.split(',');
    pairs.push({ query: query!, expected: expected!, min: Number(min), score: scorePair(query!, expected!).score });
  }
  const crossFailures = pairs.filter((p) => p.score < p.min);

  const sls = (parse(readFileSync(join(dir, 'ofac_sls_score_fixtures.csv')), { columns: true, skip_empty_lines: true }) as Record<string, string>[])
    .map((r) => ({ q: r.query_name!, c: r.result_name!, ofac: Number(r.ofac_score) }))
    .filter((r) => r.ofac >= 0)
    .map((r) => ({ ...r, ours: scorePair(r.q, r.c).score * 100 }));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const mo = mean(sls.map((r) => r.ofac)), mu = mean(sls.map((r) => r.ours));
  const cov = mean(sls.map((r) => (r.ofac - mo) * (r.ours - mu)));
  const sd = (xs: number[], m: number) => Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
  const correlation = cov / (sd(sls.map((r) => r.ofac), mo) * sd(sls.map((r) => r.ours), mu));

  return {
    ofac: { cases, misses, summary: { tp, fp, fn, tn, precision: +precision.toFixed(4), recall: +recall.toFixed(4), f1: +f1.toFixed(4) } },
    crossScript: {
      pairs, failures: crossFailures.map((p) => `${p.query} ~ ${p.expected}: ${p.score.toFixed(3)} < ${p.min}`),
      summary: { pairs: pairs.length, passed: pairs.length - crossFailures.length, passRate: +((pairs.length - crossFailures.length) / pairs.length).toFixed(4) },
    },
    sls: { pairs: sls.length, pearson: +correlation.toFixed(4), meanAbsDiff: +mean(sls.map((r) => Math.abs(r.ofac - r.ours))).toFixed(2) },
  };
}
