/**
 * Detection quality benchmark (not a test; `npm run bench:monitoring-quality`): the standard
 * templates (templateRuleVersions) replayed over a generated labelled year, pure and in memory (no
 * database). Prints JSON lines: one per typology (recall within the pattern's window), the false
 * alerts per 10,000 clean customers a year overall and per rule, and a summary with the totals and
 * the time taken. BENCH_QUALITY_CUSTOMERS (default 10,000), BENCH_QUALITY_SEED, BENCH_QUALITY_MONTHS
 * and BENCH_QUALITY_HISTORY_MONTHS (history before the labelled period, default 6) size it. `measureQuality` is what `npm run bench:monitoring` calls for its quality figures.
 */
import { pathToFileURL } from 'node:url';
import { templateRuleVersions } from '../src/domains/monitoring/templates';
import { measureQuality, type MisuraQualita } from './monitoring/quality';

export { measureQuality, withinWindow, type MisuraQualita, type OpzioniQualita } from './monitoring/quality';

/** The figures as JSON lines (one per typology, per rule, then the summary). */
export function qualityLines(m: MisuraQualita): Record<string, unknown>[] {
  return [
    ...m.recall.map((r) => ({ figure: 'quality_recall', ...r })),
    ...m.falsi_per_regola.map((r) => ({ figure: 'quality_false_alerts_rule', ...r })),
    {
      figure: 'quality', clienti: m.clienti, clienti_puliti: m.clienti_puliti, movimenti: m.movimenti, periodo: m.periodo, regole: m.regole,
      regole_escluse: m.regole_escluse, recall_minima: m.recall_minima, alert_totali: m.alert_totali, alert_falsi: m.alert_falsi,
      falsi_per_10000_clienti_anno: m.falsi_per_10000_clienti_anno, secondi: m.secondi,
      obiettivi: { recall_minima: 0.9, falsi_per_10000_clienti_anno: 500 },
    },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const num = (name: string, dflt: number) => Number(process.env[name] ?? dflt);
  const m = measureQuality({
    regole: templateRuleVersions(), clienti: num('BENCH_QUALITY_CUSTOMERS', 10_000), seed: process.env.BENCH_QUALITY_SEED ?? 'monitoraggio',
    mesi: num('BENCH_QUALITY_MONTHS', 12), mesi_storico: process.env.BENCH_QUALITY_HISTORY_MONTHS ? num('BENCH_QUALITY_HISTORY_MONTHS', 6) : undefined, log: (s) => process.stderr.write(`[bench] ${new Date().toISOString().slice(11, 19)} ${s}\n`),
  });
  for (const line of qualityLines(m)) process.stdout.write(`${JSON.stringify(line)}\n`);
}
