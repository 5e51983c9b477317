import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { withTenant } from '../../src/db/tenant';
import { appendAudit } from '../../src/domains/audit';
import { STATO_LABELS, transitionText } from '../../src/domains/cases/cases.labels';
import type { CaseCreation, CaseEventRecord, CaseOverdue, CaseProjection, CaseRecord } from '../../workflows/case/case.contract';
import { notify } from '../../src/domains/notifications';
import type { ActivityDeps } from '../deps';
import { messaging, type Messaging } from '../../src/domains/outbox';

const EVENT_COLUMNS = ['id', 'tipo', 'testo', 'actor', 'created_at'];

const caseNotFound = (id: string) =>
  ApplicationFailure.create({ type: 'CASE_NOT_FOUND', message: `case ${id} not found`, nonRetryable: true });

/**
 * The case workflow's projection: every write to cases, case_events and audit_events
 * happens here, one DB transaction per step, idempotent so that a retried activity
 * leaves exactly one copy behind.
 */
export function createCaseActivities(deps: ActivityDeps, m: Messaging = messaging(deps)) {
  const { db } = deps;
  return {
    /** Writes the case, its opening event and audit event once; answers the row either way. */
    async createCaseProjection(p: CaseCreation): Promise<CaseRecord> {
      return withTenant(db, { codAzienda: p.codAzienda, actor: p.actor.username }, async (trx) => {
        const inserted = await trx('cases').insert({
          id: p.caseId, cod_azienda: p.codAzienda, titolo: p.data.titolo, descrizione: p.data.descrizione ?? '',
          tipo: p.data.tipo, priorita: p.data.priorita, stato: 'open', cod_anagrafe: p.data.cod_anagrafe ?? null,
          assegnatario: p.data.assegnatario ?? null, opened_by: p.actor.id, sla_days: p.slaDays,
          sla_due_at: new Date(p.slaDueAt), workflow_id: p.workflowId,
        }).onConflict('id').ignore().returning('*');
        if (!inserted.length) return (await trx('cases').where({ id: p.caseId }).first()) as CaseRecord;
        await trx('case_events').insert({
          id: randomUUID(), cod_azienda: p.codAzienda, case_id: p.caseId, tipo: 'apertura',
          testo: `Caso aperto: ${p.data.titolo}`, actor: p.actor.username,
        });
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: 'case.create', entityType: 'case', entityId: p.caseId,
          data: { titolo: p.data.titolo, tipo: p.data.tipo, priorita: p.data.priorita, to: 'open', sla_due_at: p.slaDueAt, workflow_id: p.workflowId },
        });
        return inserted[0] as CaseRecord;
      });
    },

    /** One transition: its case event, the status row and the audit event, once; answers the row and the event. */
    async projectCaseTransition(p: CaseProjection): Promise<{ record: CaseRecord; event: CaseEventRecord }> {
      return withTenant(db, { codAzienda: p.codAzienda, actor: p.actor.username }, async (trx) => {
        const current = await trx('cases').where({ id: p.caseId }).forUpdate().first('id', 'stato');
        if (!current) throw caseNotFound(p.caseId);
        // The case event's id is the transition id: its presence means this step was already written.
        const isNote = p.action === 'add-event';
        const written = await trx('case_events').insert({
          id: p.transitionId, cod_azienda: p.codAzienda, case_id: p.caseId,
          tipo: isNote ? p.event!.tipo : 'transizione',
          testo: isNote ? p.event!.testo : transitionText(p.action, p.to, p.reason, p.outcome),
          actor: p.actor.username,
        }).onConflict('id').ignore().returning(EVENT_COLUMNS);
        if (!written.length) {
          // A retry of a step already written: answer what it wrote.
          const event = await trx('case_events').where({ id: p.transitionId }).first(EVENT_COLUMNS);
          return { record: (await trx('cases').where({ id: p.caseId }).first()) as CaseRecord, event: event as CaseEventRecord };
        }

        const now = new Date();
        const patch: Record<string, unknown> = { stato: p.to, updated_at: now };
        if (p.action === 'close') Object.assign(patch, { esito: p.outcome, motivazione_chiusura: p.reason, closing_requested_by: p.actor.id });
        if (p.action === 'complete-closure') Object.assign(patch, { closed_by: p.actor.id, closed_at: now });
        if (p.action === 'reopen') Object.assign(patch, { esito: null, motivazione_chiusura: null, closing_requested_by: null });
        const [record] = await trx('cases').where({ id: p.caseId }).update(patch).returning('*');
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: `case.${p.action}`, entityType: 'case', entityId: p.caseId,
          data: {
            from: p.from, to: p.to, transition_id: p.transitionId,
            ...(p.reason ? { reason: p.reason } : {}), ...(p.outcome ? { outcome: p.outcome } : {}),
            ...(p.event ? { event_tipo: p.event.tipo } : {}),
          },
        });
        return { record: record as CaseRecord, event: written[0] as CaseEventRecord };
      });
    },

    async markCaseOverdue(p: CaseOverdue): Promise<{ notified: number }> {
      const r = await withTenant(db, { codAzienda: p.codAzienda, actor: 'system' }, async (trx) => {
        const c = await trx('cases').where({ id: p.caseId }).forUpdate().first('id', 'titolo', 'stato', 'overdue', 'opened_by', 'assegnatario');
        if (!c) throw caseNotFound(p.caseId);
        if (!c.overdue) {
          await trx('cases').where({ id: p.caseId }).update({ overdue: true, updated_at: new Date() });
          await trx('case_events').insert({
            id: randomUUID(), cod_azienda: p.codAzienda, case_id: p.caseId, tipo: 'scadenza',
            testo: `SLA scaduto il ${new Date(p.slaDueAt).toLocaleDateString('it-IT', { timeZone: 'Europe/Rome' })} (stato ${STATO_LABELS[c.stato as keyof typeof STATO_LABELS] ?? c.stato})`,
            actor: 'system',
          });
          await appendAudit(trx, {
            codAzienda: p.codAzienda, actor: 'system', action: 'case.overdue', entityType: 'case', entityId: p.caseId,
            data: { sla_due_at: p.slaDueAt, stato: c.stato },
          });
        }
        // The tenant's compliance officers, the opener and the assignee; the dedup key makes a retry add nothing.
        return notify(trx, {
          codAzienda: p.codAzienda, recipients: [c.opened_by, c.assegnatario].filter(Boolean), role: 'co', tipo: 'case_overdue',
          titolo: `Caso in ritardo: ${c.titolo}`, messaggio: 'Il termine di lavorazione (SLA) del caso è scaduto.',
          link: `/casi/${p.caseId}`, entity: { type: 'case', id: p.caseId }, dedupKey: `case-overdue:${p.caseId}`,
        }, m.outbox);
      });
      await m.dispatch(r.messages);
      return { notified: r.created };
    },
  };
}
