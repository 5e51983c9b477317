import { ApplicationFailure } from '@temporalio/common';
import { withTenant } from '../../src/db/tenant';
import { appendAudit } from '../../src/domains/audit';
import { notify } from '../../src/domains/notifications';
import { messaging, type Messaging } from '../../src/domains/outbox';
import { CDD_REVIEW_STATO, type CddReviewChange } from '../../workflows/cdd/cdd-review.contract';
import type { ActivityDeps } from '../deps';

const reviewNotFound = (id: string) =>
  ApplicationFailure.create({ type: 'CDD_REVIEW_NOT_FOUND', message: `cdd review ${id} not found`, nonRetryable: true });

/**
 * The periodic review's projections: a reschedule or cancellation moves its `cdd_reviews` row
 * and appends an audit event in one transaction; the timer's due mark also tells the
 * compliance officers (`markCddReviewDue`: reviews started before the controls call it by
 * that name, so it keeps it).
 */
export function createCddReviewActivities(deps: ActivityDeps, m: Messaging = messaging(deps)) {
  const { db } = deps;
  return {
    async projectCddReviewChange(p: CddReviewChange): Promise<void> {
      await withTenant(db, { codAzienda: p.codAzienda, actor: p.actor.username }, async (trx) => {
        const row = await trx('cdd_reviews').where({ id: p.reviewId }).forUpdate().first('id', 'cod_anagrafe', 'last_change_id');
        if (!row) throw reviewNotFound(p.reviewId);
        // Changes are applied one at a time by the workflow, so the last one written tells whether this attempt already ran.
        if (row.last_change_id === p.changeId) return;
        await trx('cdd_reviews').where({ id: p.reviewId }).update({
          stato: CDD_REVIEW_STATO[p.to], due_at: new Date(p.dueAt), last_change_id: p.changeId, updated_at: new Date(),
        });
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: `cdd_review.${p.action}`, entityType: 'cdd_review', entityId: p.reviewId,
          data: {
            cod_anagrafe: row.cod_anagrafe, from: CDD_REVIEW_STATO[p.from], to: CDD_REVIEW_STATO[p.to], change_id: p.changeId,
            due_at: p.dueAt, ...(p.dueAt !== p.previousDueAt ? { previous_due_at: p.previousDueAt } : {}), reason: p.reason,
          },
        });
      });
    },

    async markCddReviewDue(p: { codAzienda: string; reviewId: string; codAnagrafe: string }): Promise<void> {
      const r = await withTenant(db, { codAzienda: p.codAzienda, actor: 'system' }, async (trx) => {
        const review = await trx('cdd_reviews').where({ id: p.reviewId }).forUpdate().first();
        if (!review) throw reviewNotFound(p.reviewId);
        if (review.stato !== 'programmata') return null;
        await trx('cdd_reviews').where({ id: p.reviewId }).update({ stato: 'scaduta', updated_at: new Date() });
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: 'system', action: 'cdd_review.due', entityType: 'cdd_review', entityId: p.reviewId,
          data: { cod_anagrafe: p.codAnagrafe, from: 'programmata', to: 'scaduta', due_at: new Date(review.due_at).toISOString() },
        });
        return notify(trx, {
          codAzienda: p.codAzienda, role: ['co'], tipo: 'cdd_review_due',
          titolo: `Verifica periodica scaduta: ${p.codAnagrafe}`,
          messaggio: `È il momento della verifica periodica dell'adeguata verifica del cliente ${p.codAnagrafe} (rischio ${review.classe_rischio ?? '—'}).`,
          link: `/anagrafe/${encodeURIComponent(p.codAnagrafe)}`, entity: { type: 'cdd_review', id: p.reviewId }, dedupKey: `cdd-review:${p.reviewId}:due`,
        }, m.outbox);
      });
      // After the commit: the e-mails of the notifications go to their delivery.
      await m.dispatch(r?.messages ?? []);
    },
  };
}
