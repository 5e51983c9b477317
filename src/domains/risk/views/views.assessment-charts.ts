import type { explainAssessment, HistoryPoint } from '../assessment';
import type { Classe } from '../risk.types';
import { CLASSE_LABELS, CLASSE_TONES } from './views.labels';

type Explained = ReturnType<typeof explainAssessment>;
interface Threshold { classe: string; punteggio_min: number }

/**
 * The explainability as a waterfall: each named contribution a step (the rule's name and its
 * points), then the total; the floor, when one raised the class, as a labelled line at the score
 * where its class starts, and the class thresholds as lines.
 */
export function contributionsWaterfall(e: Explained) {
  const categories = [...e.passi.map((p) => p.nome), 'Totale'];
  const data = [...e.passi.map((p) => p.punti), e.somma];
  const lines: { value: number; label: string; tone: string }[] = [];
  for (const s of e.soglie as Threshold[]) {
    if (s.punteggio_min > 0) lines.push({ value: s.punteggio_min, label: `${CLASSE_LABELS[s.classe as Classe] ?? s.classe} da ${s.punteggio_min}`, tone: CLASSE_TONES[s.classe as Classe] ?? 'secondary' });
  }
  const floor = e.pavimento ? (e.soglie as Threshold[]).find((s) => s.classe === e.pavimento!.classe) : undefined;
  if (e.pavimento) {
    lines.push({ value: floor?.punteggio_min ?? e.somma, label: `Pavimento: ${CLASSE_LABELS[e.pavimento.classe as Classe] ?? e.pavimento.classe} (${e.pavimento.regola})`, tone: 'purple' });
  }
  return { categories, series: [{ name: 'Punti', tone: 'red', data }], totals: [categories.length - 1], lines };
}

const dayTime = new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', day: '2-digit', month: '2-digit', year: 'numeric' });

/** The customer's score over time (every calculation), with the classes as shaded bands of the score axis. */
export function scoreHistoryChart(punti: HistoryPoint[], soglie: Threshold[]) {
  const sorted = [...soglie].sort((a, b) => a.punteggio_min - b.punteggio_min);
  const top = Math.max(...punti.map((p) => p.punteggio), ...sorted.map((s) => s.punteggio_min), 0) + 10;
  const bands = sorted.map((s, i) => ({
    from: s.punteggio_min, to: sorted[i + 1]?.punteggio_min ?? top, label: CLASSE_LABELS[s.classe as Classe] ?? s.classe, tone: CLASSE_TONES[s.classe as Classe] ?? 'secondary',
  }));
  return {
    categories: punti.map((p) => dayTime.format(new Date(p.calcolato_at))),
    series: [{ name: 'Punteggio', tone: 'blue', data: punti.map((p) => p.punteggio) }],
    bands,
  };
}
