import type { Knex } from 'knex';
import { data as dataIt } from '../../http/format';
import { actorLabel, auditTimeline, byTime, type AuditLike, type TimelineItem } from '../../kit/timeline';
import { fullNamesByUsername } from '../../kit/users';
import { ESITO_LABELS, EVENTO_AGGIUNTO_LABELS, EVENTO_LABELS, PRIORITA_LABELS, STATO_LABELS, TIPO_LABELS } from './cases.labels';

interface CaseEventRow { id: string; tipo: string; testo: string; actor: string; created_at: Date | string }

/** Case events the audit trail already tells (its opening, transitions, the SLA's expiry): shown once, from the audit row. */
const TOLD_BY_AUDIT = new Set(['apertura', 'transizione', 'scadenza']);

/**
 * A case's timeline: its audit rows in Italian words, with the text of the event a person added
 * (the event's id is the transition id its audit row records); events without an audit row
 * (imported or older ones) keep their own line.
 */
export async function caseTimeline(trx: Knex.Transaction, audit: AuditLike[], events: CaseEventRow[]): Promise<TimelineItem[]> {
  const eventById = new Map(events.map((e) => [e.id, e]));
  const linked = new Set<string>();
  const eventOf = (a: AuditLike) => {
    const e = eventById.get(String(a.data?.transition_id ?? ''));
    if (e) linked.add(e.id);
    return e;
  };
  const fromAudit = await auditTimeline(trx, audit, {
    states: STATO_LABELS,
    outcomes: ESITO_LABELS,
    title: (a) => (a.action === 'case.add-event' ? EVENTO_AGGIUNTO_LABELS[String(a.data?.event_tipo)] : undefined),
    detail: (a) => {
      const d = a.data ?? {};
      const e = eventOf(a);
      if (a.action === 'case.add-event') return e ? [e.testo] : [];
      if (a.action === 'case.create') return [`${TIPO_LABELS[String(d.tipo)] ?? ''}, priorità ${(PRIORITA_LABELS[String(d.priorita)] ?? '').toLowerCase()}`];
      if (a.action === 'case.overdue') return [`Scadenza SLA del ${dataIt(d.sla_due_at)}`];
      return [];
    },
    tone: (a) => (a.action === 'case.add-event' ? 'secondary' : undefined),
  });
  const rest = events.filter((e) => !linked.has(e.id) && !TOLD_BY_AUDIT.has(e.tipo));
  const names = await fullNamesByUsername(trx, rest.map((e) => e.actor));
  return byTime(fromAudit, rest.map((e) => ({ at: e.created_at, actor: actorLabel(e.actor, names), title: EVENTO_LABELS[e.tipo] ?? e.tipo, text: e.testo, tone: 'secondary' })));
}
