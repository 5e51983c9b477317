import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import { withTenant } from '../../src/db/tenant';
import { getSetting } from '../../src/domains/admin';
import { appendAudit } from '../../src/domains/audit';
import { notify } from '../../src/domains/notifications';
import { addYears, REVIEW_YEARS_SETTING } from '../../src/domains/onboarding';
import { nextCode } from '../../src/domains/records';
import { messaging, type Messaging } from '../../src/domains/outbox';
import { cancelCddReviewUpdate, cddReviewWorkflowId } from '../../workflows/cdd/cdd-review.contract';
import {
  CDD_TASK_FAILURES, type CddNextReview, type CddTaskCreation, type CddTaskProjection, type CddTaskRecord,
} from '../../workflows/cdd/cdd-task.contract';
import { CDD_OPEN_STATES } from '../../workflows/cdd/cdd-task.machine';
import type { ActivityDeps } from '../deps';

/** A customer's EDD cases as the EDD area reads them (its `eddCasesForCustomer`). */
export type EddCasesReader = (trx: Knex.Transaction, codAnagrafe: string) => Promise<{ stato: string; approved_at: Date | string | null }[]>;

const taskNotFound = (id: string) =>
  ApplicationFailure.create({ type: CDD_TASK_FAILURES.notFound, message: `cdd task ${id} not found`, nonRetryable: true });

/** The projection of a transition, with what the workflow starts after it (the next periodic review). */
export interface CddTransitionWritten { record: CddTaskRecord; nextReview?: CddNextReview }

/** The platform itself, acting as compliance officer when it cancels the reviews a completed task replaced. */
const SYSTEM_CO = { id: 'system', username: 'system', roles: ['co'] };

/**
 * The CDD task's projections: every write to cdd_pratiche (and what a completion or an
 * abstention brings with it) happens here, one transaction per step with its audit event,
 * idempotent so a retried activity leaves one copy behind.
 *
 * `eddCases` is the EDD area's reader: with it, completing an enhanced task requires an EDD case
 * approved since the task was opened; without it (the area absent) the completion records that
 * the EDD was required and not verified.
 */
export function createCddTaskActivities(deps: ActivityDeps, m: Messaging = messaging(deps), eddCases: EddCasesReader | null = null) {
  const { db } = deps;

  async function requireQuestionnaire(trx: Knex.Transaction, row: CddTaskRecord) {
    const done = await trx('questionari').where({ stato: 'completato' })
      .where((q) => q.where({ cdd_pratica_id: row.id }).orWhere((o) => o.where({ cod_anagrafe: row.cod_anagrafe }).where('completed_at', '>=', row.created_at)))
      .first('cod_questionario');
    if (!done) {
      throw ApplicationFailure.create({
        type: CDD_TASK_FAILURES.questionnaireIncomplete, nonRetryable: true, message: 'the task has no completed questionnaire',
        details: [{ cod_pratica: row.cod_pratica, cod_anagrafe: row.cod_anagrafe }],
      });
    }
    return done.cod_questionario as string;
  }

  /** 'approvata' (an EDD case approved since the task opened), or 'non_verificabile' without the EDD area; refuses otherwise. */
  async function requireEdd(trx: Knex.Transaction, row: CddTaskRecord): Promise<'approvata' | 'non_verificabile' | 'non_richiesta'> {
    if (row.livello !== 'rafforzata') return 'non_richiesta';
    if (!eddCases) return 'non_verificabile';
    const since = new Date(row.created_at).getTime();
    const cases = await eddCases(trx, row.cod_anagrafe);
    if (cases.some((c) => c.approved_at && new Date(c.approved_at).getTime() >= since)) return 'approvata';
    throw ApplicationFailure.create({
      type: CDD_TASK_FAILURES.eddRequired, nonRetryable: true, message: 'an enhanced task needs an EDD case approved since it opened',
      details: [{ cod_pratica: row.cod_pratica, cod_anagrafe: row.cod_anagrafe }],
    });
  }

  /** The next periodic review by the customer's class (tenant settings), written with the completion. */
  async function scheduleNextReview(trx: Knex.Transaction, p: CddTaskProjection, row: CddTaskRecord, now: Date): Promise<CddNextReview> {
    const customer = await trx('anagrafe').where({ cod_anagrafe: row.cod_anagrafe }).first('classe_rischio');
    const classe = customer?.classe_rischio ?? row.classe_rischio ?? 'medio';
    const years = Number(await getSetting(trx, REVIEW_YEARS_SETTING[classe] ?? 'cdd.review_years_medium', p.codAzienda));
    const reviewId = randomUUID();
    const dueAt = addYears(now, years);
    await trx('cdd_reviews').insert({
      id: reviewId, cod_azienda: p.codAzienda, cod_anagrafe: row.cod_anagrafe, motivo: 'adeguata_verifica', classe_rischio: classe,
      due_at: dueAt, stato: 'programmata', workflow_id: cddReviewWorkflowId(p.codAzienda, reviewId),
    });
    await appendAudit(trx, {
      codAzienda: p.codAzienda, actor: p.actor.username, action: 'cdd_review.create', entityType: 'cdd_review', entityId: reviewId,
      data: { cod_anagrafe: row.cod_anagrafe, classe_rischio: classe, due_at: dueAt.toISOString(), anni: years, cdd_pratica: row.cod_pratica },
    });
    return { reviewId, codAnagrafe: row.cod_anagrafe, dueAt: dueAt.toISOString() };
  }

  return {
    /** Writes the task (its code, level and reasons) and its audit event once; or names the customer's open task. */
    async createCddTaskProjection(p: CddTaskCreation): Promise<{ record: CddTaskRecord | null; existing?: string }> {
      const r = await withTenant(db, { codAzienda: p.codAzienda, actor: p.actor.username }, async (trx) => {
        const mine = await trx('cdd_pratiche').where({ id: p.taskId }).first();
        if (mine) return { record: mine as CddTaskRecord };
        const open = await trx('cdd_pratiche').where({ cod_anagrafe: p.data.cod_anagrafe }).whereIn('stato', CDD_OPEN_STATES).first('id');
        if (open) return { record: null, existing: open.id as string };
        const codPratica = await nextCode(trx, p.codAzienda, 'CDD');
        const inserted = await trx('cdd_pratiche').insert({
          id: p.taskId, cod_azienda: p.codAzienda, cod_pratica: codPratica, cod_anagrafe: p.data.cod_anagrafe, livello: p.data.livello,
          motivazioni_livello: JSON.stringify(p.data.motivazioni_livello), classe_rischio: p.data.classe_rischio, pep: p.data.pep,
          motivo: p.data.motivo, origine: JSON.stringify(p.data.origine), stato: 'open', analista_puo_completare: p.data.analista_puo_completare,
          edd_richiesta: p.data.livello === 'rafforzata', nota: p.data.nota ?? null, due_at: new Date(p.data.due_at), created_by: p.actor.id,
          review_id: p.data.review_id ?? null, workflow_id: p.workflowId,
        }).onConflict().ignore().returning('*');
        // Another task of the customer opened since the read (the unique index): roll back (the code is not used) and look again.
        if (!inserted.length) throw new Error(`another task opened for ${p.data.cod_anagrafe} concurrently`);
        if (p.data.chiave) {
          await trx('cdd_attivazioni').insert({ cod_azienda: p.codAzienda, chiave: p.data.chiave, cdd_pratica_id: p.taskId, motivo: p.data.motivo })
            .onConflict(['cod_azienda', 'chiave']).ignore();
        }
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: 'cdd_task.create', entityType: 'cdd_task', entityId: p.taskId,
          data: {
            cod_pratica: codPratica, cod_anagrafe: p.data.cod_anagrafe, to: 'open', livello: p.data.livello, motivo: p.data.motivo,
            motivazioni_livello: p.data.motivazioni_livello.map((x) => x.codice), origine: p.data.origine, workflow_id: p.workflowId,
          },
        });
        return { record: inserted[0] as CddTaskRecord };
      });
      return r;
    },

    /** One transition: the row, what the step brings (completion: checks, customer, next review; abstention: the SOS proposal) and the audit event. */
    async projectCddTaskTransition(p: CddTaskProjection): Promise<CddTransitionWritten> {
      const r = await withTenant(db, { codAzienda: p.codAzienda, actor: p.actor.username }, async (trx) => {
        const row = await trx('cdd_pratiche').where({ id: p.taskId }).forUpdate().first() as CddTaskRecord & { last_transition_id: string | null } | undefined;
        if (!row) throw taskNotFound(p.taskId);
        // Steps are applied one at a time by the workflow: the last one written tells whether this attempt already ran.
        if (row.last_transition_id === p.transitionId) return { written: { record: row, ...nextOf(row) }, notified: null };

        const now = new Date();
        const patch: Record<string, unknown> = { stato: p.to, last_transition_id: p.transitionId, updated_at: now };
        const extra: Record<string, unknown> = {};
        let nextReview: CddNextReview | undefined;
        let notified = null;
        switch (p.action) {
          case 'start':
            Object.assign(patch, { started_by: p.actor.id, started_at: now, assegnatario: row.assegnatario ?? (isUuid(p.actor.id) ? p.actor.id : null) });
            break;
          case 'review':
            Object.assign(patch, { review_requested_by: p.actor.id, review_requested_by_username: p.actor.username, review_requested_at: now });
            break;
          case 'send-back':
            Object.assign(patch, { review_requested_by: null, review_requested_by_username: null, review_requested_at: null });
            break;
          case 'complete': {
            extra.cod_questionario = await requireQuestionnaire(trx, row);
            extra.edd = await requireEdd(trx, row);
            nextReview = await scheduleNextReview(trx, p, row, now);
            Object.assign(patch, {
              completed_by: p.actor.id, completed_by_username: p.actor.username, completed_at: now, revisore: p.actor.username,
              next_review_id: nextReview.reviewId, next_review_at: new Date(nextReview.dueAt),
            });
            await recordOnCustomer(trx, p, row, now, nextReview);
            break;
          }
          case 'abstain':
            Object.assign(patch, { motivazione_astensione: p.nota, abstained_by: p.actor.id, abstained_at: now });
            notified = await proposeSos(trx, p, row);
            break;
          case 'delete':
            Object.assign(patch, { motivo_eliminazione: p.nota, deleted_by: p.actor.id, deleted_at: now });
            break;
          case 'add-note':
            break;
        }
        const [record] = await trx('cdd_pratiche').where({ id: p.taskId }).update(patch).returning('*');
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: `cdd_task.${p.action}`, entityType: 'cdd_task', entityId: p.taskId,
          data: {
            cod_pratica: row.cod_pratica, cod_anagrafe: row.cod_anagrafe, from: p.from, to: p.to, transition_id: p.transitionId,
            ...(p.nota ? { nota: p.nota } : {}), ...extra, ...(nextReview ? { next_review_id: nextReview.reviewId, next_review_at: nextReview.dueAt } : {}),
          },
        });
        return { written: { record: record as CddTaskRecord, ...(nextReview ? { nextReview } : {}) }, notified };
      });
      // After the commit: the e-mails of the notifications go to their delivery.
      if (r.notified) await m.dispatch(r.notified.messages);
      return r.written;
    },

    /**
     * Cancels, through their own workflows (row, audit event), the customer's scheduled reviews a
     * completed task replaced: every one but the review the completion scheduled. Runs after the
     * completion; a review whose workflow ended already is left as it is.
     */
    async cancelReplacedCddReviews(p: { codAzienda: string; taskId: string }): Promise<{ cancelled: number }> {
      const reviews = await withTenant(db, { codAzienda: p.codAzienda }, async (trx) => {
        const task = await trx('cdd_pratiche').where({ id: p.taskId }).first('cod_anagrafe', 'cod_pratica', 'next_review_id');
        if (!task?.next_review_id) return [];
        return trx('cdd_reviews').where({ cod_anagrafe: task.cod_anagrafe, stato: 'programmata' }).whereNot({ id: task.next_review_id })
          .select('id', 'workflow_id', trx.raw('? as cod_pratica', [task.cod_pratica])) as Promise<{ id: string; workflow_id: string; cod_pratica: string }[]>;
      });
      const { client } = Context.current();
      let cancelled = 0;
      for (const r of reviews) {
        try {
          await client.workflow.getHandle(r.workflow_id).executeUpdate(cancelCddReviewUpdate, {
            args: [{ actor: SYSTEM_CO, reason: `Sostituita dalla verifica periodica programmata al completamento della pratica ${r.cod_pratica}` }],
            updateId: `cdd-task:${p.taskId}:cancel-review:${r.id}`,
          });
          cancelled++;
        } catch (err) {
          // Ended already, or moved on since the read (fell due, cancelled by hand): nothing left to cancel.
          if (err instanceof WorkflowNotFoundError) continue;
          if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === 'INVALID_TRANSITION') continue;
          throw err;
        }
      }
      return { cancelled };
    },
  };

  /** The customer record carries its last due diligence (level, date, next review) in its data. */
  async function recordOnCustomer(trx: Knex.Transaction, p: CddTaskProjection, row: CddTaskRecord, now: Date, next: CddNextReview) {
    const summary = { cod_pratica: row.cod_pratica, livello: row.livello, completata_il: now.toISOString(), prossima_revisione: next.dueAt };
    await trx('anagrafe').where({ cod_anagrafe: row.cod_anagrafe })
      .update({ dati: trx.raw(`jsonb_set(coalesce(dati, '{}'::jsonb), '{adeguata_verifica}', ?::jsonb)`, [JSON.stringify(summary)]), updated_at: now });
    await appendAudit(trx, {
      codAzienda: p.codAzienda, actor: p.actor.username, action: 'anagrafe.cdd_update', entityType: 'anagrafe', entityId: row.cod_anagrafe, data: summary,
    });
  }

  /** Art. 42 c.4: the abstention goes to the SOS delegates, who evaluate a report; the customer is never told. */
  function proposeSos(trx: Knex.Transaction, p: CddTaskProjection, row: CddTaskRecord) {
    return notify(trx, {
      codAzienda: p.codAzienda, role: ['sos'], tipo: 'cdd_abstention',
      titolo: `Astensione dall'adeguata verifica: ${row.cod_anagrafe}`,
      messaggio: `È stata registrata l'astensione (art. 42 d.lgs. 231/2007) nella pratica ${row.cod_pratica} del cliente ${row.cod_anagrafe}. `
        + 'Valuta l\'invio di una segnalazione di operazione sospetta. Il cliente non deve esserne informato (art. 39).',
      link: `/cdd/${p.taskId}`, entity: { type: 'cdd_task', id: p.taskId }, dedupKey: `cdd-abstention:${p.taskId}`,
    }, m.outbox);
  }
}

const isUuid = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);
const nextOf = (row: CddTaskRecord): { nextReview?: CddNextReview } => (row.stato === 'completed' && row.next_review_id && row.next_review_at
  ? { nextReview: { reviewId: row.next_review_id, codAnagrafe: row.cod_anagrafe, dueAt: new Date(row.next_review_at).toISOString() } }
  : {});
