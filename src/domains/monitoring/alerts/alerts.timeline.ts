import type { Knex } from 'knex';
import { data as dataIt } from '../../../http/format';
import { auditTimeline, type AuditLike, type TimelineItem } from '../../../kit/timeline';
import { DISPOSIZIONE_LABELS, ORIGINE_LABELS, STATO_LABELS } from '../monitoring.labels';

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** An alert's timeline: its audit trail in Italian, with what each step decided (the hits, the disposition, the case). */
export function alertTimeline(trx: Knex.Transaction, audit: AuditLike[], names: Record<string, string>): Promise<TimelineItem[]> {
  return auditTimeline(trx, audit, {
    states: STATO_LABELS,
    detail: (a) => {
      const d = a.data ?? {};
      switch (a.action) {
        case 'monitoring.alert.raise':
        case 'monitoring.alert.create':
          return [`${ORIGINE_LABELS[str(d.origine) as keyof typeof ORIGINE_LABELS] ?? str(d.origine)}, punteggio ${d.punteggio}, periodo dal ${dataIt(d.finestra_da)} al ${dataIt(d.finestra_a)}`];
        case 'monitoring.alert.hit':
          return [`Riscontro n. ${d.riscontri}: punteggio ${d.punteggio}, periodo dal ${dataIt(d.finestra_da)} al ${dataIt(d.finestra_a)}`];
        case 'monitoring.alert.assign':
          return [`Assegnato a ${names[str(d.assegnatario)] ?? 'un utente non più attivo'}`];
        case 'monitoring.alert.close':
        case 'monitoring.alert.propose-closure':
        case 'monitoring.alert.confirm-closure':
          return [`Disposizione: ${DISPOSIZIONE_LABELS[str(d.disposizione) as keyof typeof DISPOSIZIONE_LABELS] ?? str(d.disposizione)}`,
            ...(d.sos_suggerita ? ['Suggerita una segnalazione di operazione sospetta'] : [])];
        case 'monitoring.alert.escalate':
          return ['Aperto un caso d\'indagine'];
        default:
          return [];
      }
    },
    tone: (a) => (a.action === 'monitoring.alert.hit' ? 'secondary' : a.action === 'monitoring.alert.delete' ? 'red' : undefined),
  });
}
