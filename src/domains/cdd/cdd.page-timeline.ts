import type { Knex } from 'knex';
import { data as dataIt } from '../../http/format';
import { auditTimeline, type AuditLike, type TimelineItem } from '../../kit/timeline';
import { EVIDENZA_TIPO_LABELS, LIVELLO_LABELS, MOTIVO_LABELS, STATO_LABELS } from './cdd.labels';

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/**
 * A task's timeline: its audit rows in Italian words, with what matters for a due diligence: the
 * level and why the task was opened, the note of each step (send-back, abstention, deletion), the
 * evidence added, the next periodic review a completion scheduled.
 */
export function cddTimeline(trx: Knex.Transaction, audit: AuditLike[]): Promise<TimelineItem[]> {
  return auditTimeline(trx, audit, {
    states: STATO_LABELS,
    detail: (a) => {
      const d = a.data ?? {};
      const lines: string[] = [];
      if (a.action === 'cdd_task.create') lines.push(`Livello ${(LIVELLO_LABELS[text(d.livello)] ?? '').toLowerCase()}, motivo: ${(MOTIVO_LABELS[text(d.motivo)] ?? '').toLowerCase()}`);
      if (a.action === 'cdd_task.evidence') lines.push([EVIDENZA_TIPO_LABELS[text(d.tipo)], text(d.nome_file)].filter(Boolean).join(': '));
      if (text(d.next_review_at)) lines.push(`Prossima revisione periodica il ${dataIt(d.next_review_at)}`);
      if (text(d.nota)) lines.push(`Nota: ${text(d.nota)}`);
      return lines;
    },
    tone: (a) => (a.action === 'cdd_task.add-note' || a.action === 'cdd_task.evidence' ? 'secondary' : undefined),
  });
}
