import { proxyActivities } from '@temporalio/workflow';
import type { createOnboardingActivities } from '../../activities/onboarding/onboarding.activities';
import { waitForDeadline } from '../lib/sla';
import type { CddReviewInput } from './cdd-review.contract';

const acts = proxyActivities<ReturnType<typeof createOnboardingActivities>>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '10 minutes' },
});

/**
 * A durable timer for a customer's periodic review: it sleeps until the due date (years
 * away), then marks the review due and tells the compliance staff. The CDD process
 * (its own issue) takes the review from there.
 */
export async function cddReviewWorkflow(input: CddReviewInput): Promise<'due'> {
  await waitForDeadline(input.dueAt, () => false);
  await acts.markCddReviewDue({ codAzienda: input.codAzienda, reviewId: input.reviewId, codAnagrafe: input.codAnagrafe });
  return 'due';
}
