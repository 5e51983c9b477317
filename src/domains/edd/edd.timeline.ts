import type { Knex } from 'knex';
import { auditTimeline, type AuditLike, type TimelineItem } from '../../kit/timeline';
import { MOTIVO_LABELS, STATO_LABELS, STEP_TIPO_LABELS } from './edd.labels';

const label = (l: Record<string, string>, v: unknown) => l[String(v)] ?? String(v);

/** An EDD case's timeline: its audit rows in Italian words, with the measure each step line is about. */
export function eddTimeline(trx: Knex.Transaction, audit: AuditLike[]): Promise<TimelineItem[]> {
  return auditTimeline(trx, audit, {
    states: STATO_LABELS,
    detail: (a) => {
      const d = a.data ?? {};
      if (a.action === 'edd.create') {
        const motivi = Array.isArray(d.motivi) ? d.motivi.map((m) => label(MOTIVO_LABELS, m)).join(', ') : '';
        const steps = Array.isArray(d.steps) ? d.steps.length : 0;
        return [`${String(d.cod_edd ?? '')}: ${motivi}`, `${steps} ${steps === 1 ? 'misura proposta' : 'misure proposte'}`];
      }
      if (d.step_titolo) return [`${label(STEP_TIPO_LABELS, d.step_tipo)}: ${String(d.step_titolo)}`];
      return [];
    },
    tone: (a) => (a.action === 'edd.respingi' ? 'red' : a.action === 'edd.aggiungi-step' ? 'secondary' : undefined),
  });
}
