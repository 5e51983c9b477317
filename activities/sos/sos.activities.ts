import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { withTenant, type DbPrincipal } from '../../src/db/tenant';
import { notify } from '../../src/domains/notifications';
import { messaging, type Messaging } from '../../src/domains/outbox';
import { appendSosAudit } from '../../src/domains/sos/sos.audit';
import { writeSosContent } from '../../src/domains/sos/sos.content';
import { SOS_ACTION_TEXT } from '../../src/domains/sos/sos.labels';
import type { MachineActor } from '../../workflows/lib/machine';
import type { SosCreation, SosEscalation, SosProjection, SosRecord } from '../../workflows/sos/sos.contract';
import type { ActivityDeps } from '../deps';

const sosNotFound = (id: string) => ApplicationFailure.create({ type: 'SOS_NOT_FOUND', message: `sos ${id} not found`, nonRetryable: true });

/** The acting user as the SOS tables' policy sees them (docs/sos.md, "Tipping-off"). */
export const principalOf = (a: MachineActor): DbPrincipal => ({ user: a.id, roles: a.roles });
/** The workflow's own timer acts as the delegate: it reads the report to escalate it. */
export const SOS_TIMER_PRINCIPAL: DbPrincipal = { user: 'system:sos-evaluation', roles: ['sos'] };

/**
 * The SOS workflow's projections: every write to sos_reports, its timeline and its audit chain,
 * one transaction per step under the acting principal, idempotent on the transition id.
 */
export function createSosActivities(deps: ActivityDeps, m: Messaging = messaging(deps)) {
  const { db } = deps;
  return {
    async createSosProjection(p: SosCreation): Promise<SosRecord> {
      return withTenant(db, { codAzienda: p.codAzienda, actor: p.actor.username, principal: principalOf(p.actor) }, async (trx) => {
        const inserted = await trx('sos_reports').insert({
          id: p.sosId, cod_azienda: p.codAzienda, tipo: p.data.tipo, sostituisce_id: p.data.sostituisce_id ?? null, stato: 'draft',
          origine: p.data.origine, origine_ref: p.data.origine_ref ?? null, cod_anagrafe: p.data.cod_anagrafe, oggetto: p.data.oggetto,
          descrizione: p.data.descrizione, reporter: p.actor.id, reporter_username: p.actor.username, valutazione_giorni: p.evaluationDays,
          workflow_id: p.workflowId,
        }).onConflict('id').ignore().returning('*');
        if (!inserted.length) return (await trx('sos_reports').where({ id: p.sosId }).first()) as SosRecord;
        await writeSosContent(trx, p.codAzienda, p.sosId, p.data.content);
        await trx('sos_eventi').insert({ id: randomUUID(), cod_azienda: p.codAzienda, sos_id: p.sosId, tipo: 'creazione', testo: `Bozza creata: ${p.data.oggetto}`, actor: p.actor.username });
        await appendSosAudit(trx, {
          codAzienda: p.codAzienda, sosId: p.sosId, actor: p.actor.username, action: 'sos.create',
          data: { origine: p.data.origine, origine_ref: p.data.origine_ref ?? null, tipo: p.data.tipo, sostituisce_id: p.data.sostituisce_id ?? null, workflow_id: p.workflowId },
        });
        return inserted[0] as SosRecord;
      });
    },

    async projectSosTransition(p: SosProjection): Promise<SosRecord> {
      return withTenant(db, { codAzienda: p.codAzienda, actor: p.actor.username, principal: principalOf(p.actor) }, async (trx) => {
        const current = await trx('sos_reports').where({ id: p.sosId }).forUpdate().first('id');
        if (!current) throw sosNotFound(p.sosId);
        const written = await trx('sos_eventi').insert({
          id: p.transitionId, cod_azienda: p.codAzienda, sos_id: p.sosId, tipo: 'transizione',
          testo: SOS_ACTION_TEXT(p.action, p.reason, p.protocollo), actor: p.actor.username,
        }).onConflict('id').ignore().returning('id');
        if (!written.length) return (await trx('sos_reports').where({ id: p.sosId }).first()) as SosRecord;
        const now = new Date();
        const patch: Record<string, unknown> = { stato: p.to, updated_at: now };
        if (p.action === 'submit') patch.valutazione_scadenza = p.evaluationDueAt ? new Date(p.evaluationDueAt) : null;
        if (p.action === 'evaluate') patch.valutatore = p.actor.username;
        if (p.action === 'archive') Object.assign(patch, { motivazione_archiviazione: p.reason, closed_at: now });
        if (p.action === 'complete-transmission') Object.assign(patch, { protocollo_uif: p.protocollo, trasmessa_at: now });
        if (p.action === 'close') patch.closed_at = now;
        const [record] = await trx('sos_reports').where({ id: p.sosId }).update(patch).returning('*');
        await appendSosAudit(trx, {
          codAzienda: p.codAzienda, sosId: p.sosId, actor: p.actor.username, action: `sos.${p.action}`,
          data: { from: p.from, to: p.to, transition_id: p.transitionId, ...(p.reason ? { reason: p.reason } : {}), ...(p.protocollo ? { protocollo: p.protocollo } : {}) },
        });
        return record as SosRecord;
      });
    },

    /**
     * The evaluation term passed without a decision: the report is flagged, and the tenant's
     * compliance officers get a notification that names no customer; it is confidential, so its
     * e-mail copy (the outbox, whose list admins read) names neither the report nor its page.
     */
    async escalateSosEvaluation(p: SosEscalation): Promise<{ notified: number }> {
      const r = await withTenant(db, { codAzienda: p.codAzienda, actor: SOS_TIMER_PRINCIPAL.user, principal: SOS_TIMER_PRINCIPAL }, async (trx) => {
        const row = await trx('sos_reports').where({ id: p.sosId }).forUpdate().first('id', 'stato', 'escalated', 'cod_segnalazione');
        if (!row) throw sosNotFound(p.sosId);
        if (!row.escalated) {
          await trx('sos_reports').where({ id: p.sosId }).update({ escalated: true, updated_at: new Date() });
          await trx('sos_eventi').insert({
            id: randomUUID(), cod_azienda: p.codAzienda, sos_id: p.sosId, tipo: 'scadenza',
            testo: `Termine di valutazione scaduto il ${new Date(p.dueAt).toLocaleDateString('it-IT', { timeZone: 'Europe/Rome' })}: segnalata al responsabile antiriciclaggio`,
            actor: SOS_TIMER_PRINCIPAL.user,
          });
          await appendSosAudit(trx, { codAzienda: p.codAzienda, sosId: p.sosId, actor: SOS_TIMER_PRINCIPAL.user, action: 'sos.escalate', data: { due_at: p.dueAt, stato: row.stato } });
        }
        return notify(trx, {
          codAzienda: p.codAzienda, recipients: [], role: 'co', tipo: 'sos_evaluation_overdue',
          titolo: `Segnalazione riservata ${row.cod_segnalazione}: termine di valutazione scaduto`,
          messaggio: 'Il delegato SOS non ha concluso la valutazione nel termine previsto.',
          link: `/sos/${p.sosId}`, dedupKey: `sos-evaluation-overdue:${p.sosId}`, riservata: true,
        }, m.outbox);
      });
      await m.dispatch(r.messages);
      return { notified: r.created };
    },
  };
}
