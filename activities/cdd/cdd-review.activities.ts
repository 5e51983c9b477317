import { ApplicationFailure } from '@temporalio/common';
import { withTenant } from '../../src/db/tenant';
import { appendAudit } from '../../src/domains/audit/audit.chain';
import { CDD_REVIEW_STATO, type CddReviewChange } from '../../workflows/cdd/cdd-review.contract';
import type { ActivityDeps } from '../deps';

const reviewNotFound = (id: string) =>
  ApplicationFailure.create({ type: 'CDD_REVIEW_NOT_FOUND', message: `cdd review ${id} not found`, nonRetryable: true });

/**
 * The periodic review's projection: a reschedule or cancellation moves its `cdd_reviews` row
 * and appends an audit event in one transaction. (The due mark, which the timer makes, is
 * `markCddReviewDue`: reviews started before the controls existed call it by that name.)
 */
export function createCddReviewActivities({ db }: ActivityDeps) {
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
  };
}
