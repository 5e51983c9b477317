import type { ChartData } from '../../../kit/charts';
import { CLASSI, type Classe } from '../risk.types';
import { CLASSE_LABELS, CLASSE_TONES, SEGMENTO_LABELS } from './views.labels';
import type { ClassCounts, Distribution, Portfolio } from './views.portfolio';

/** The portfolio's charts for the chart macro: words already Italian, one series per class in its badge colour. */

const monthLabel = new Intl.DateTimeFormat('it-IT', { timeZone: 'UTC', month: 'short', year: 'numeric' });
/** "nov 2026" for '2026-11'. */
export const formatMonth = (ym: string) => { const [y, m] = ym.split('-').map(Number); return monthLabel.format(new Date(Date.UTC(y!, m! - 1, 1))); };

export const countryLabel = (paese: string | null) => paese ?? 'Non indicato';

export function byClassChart(perClasse: ClassCounts): ChartData {
  return { categories: CLASSI.map((c) => CLASSE_LABELS[c]), series: [{ name: 'Clienti', data: CLASSI.map((c) => perClasse[c]) }], tones: CLASSI.map((c) => CLASSE_TONES[c]) };
}

/** One stacked series per class over the given groups. */
export function stackedByClass(groups: { label: string; per_classe: ClassCounts }[]): ChartData {
  return {
    categories: groups.map((g) => g.label),
    series: CLASSI.map((c: Classe) => ({ name: CLASSE_LABELS[c], tone: CLASSE_TONES[c], data: groups.map((g) => g.per_classe[c]) })),
  };
}

export const segmentChart = (p: Pick<Portfolio, 'per_segmento'>) => stackedByClass(p.per_segmento.map((s) => ({ label: SEGMENTO_LABELS[s.segmento] ?? s.segmento, per_classe: s.per_classe })));
export const countryChart = (p: Pick<Portfolio, 'per_paese'>, top: number) => stackedByClass(p.per_paese.slice(0, top).map((s) => ({ label: countryLabel(s.paese), per_classe: s.per_classe })));

export function scoreHistogram(d: Distribution): ChartData {
  return { categories: d.fasce.map((f) => f.label), series: [{ name: 'Clienti', tone: 'blue', data: d.fasce.map((f) => f.clienti) }] };
}

export const monthlyClasses = (d: Distribution) => stackedByClass(d.mesi.map((m) => ({ label: formatMonth(m.mese), per_classe: m.per_classe })));

/** A heatmap of groups (rows) by class (columns): [xIndex = class, yIndex = group, count]. */
export function classHeatmap(groups: { label: string; per_classe: ClassCounts }[], tone = 'red') {
  return {
    categories: CLASSI.map((c) => CLASSE_LABELS[c]),
    yCategories: groups.map((g) => g.label),
    series: [{ name: 'Clienti', tone, data: groups.flatMap((g, y) => CLASSI.map((c, x) => [x, y, g.per_classe[c]])) }],
  };
}
