import { ActivityFailure, ApplicationFailure, proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { createOutboxActivities } from '../../activities/outbox/outbox.activities';
import { CodAzienda, RecordId, RecordStatus, RecordType } from '../lib/search-attributes';
import { DELIVERY_RETRY, MESSAGE_RECORD_TYPE, SMTP_REJECTED, type DeliveryOutcome, type MessageDeliveryInput } from './outbox.contract';

type Acts = ReturnType<typeof createOutboxActivities>;

const delivery = proxyActivities<Acts>({
  // Longer than the SMTP client's own timeouts (10 s connect, 30 s socket).
  startToCloseTimeout: '2 minutes',
  retry: { ...DELIVERY_RETRY, nonRetryableErrorTypes: [SMTP_REJECTED] },
});
const bookkeeping = proxyActivities<Acts>({ startToCloseTimeout: '1 minute', retry: { initialInterval: '1 second', maximumInterval: '1 minute' } });

const causeMessage = (err: unknown): string => {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  return cause instanceof Error ? cause.message : String(cause);
};

/**
 * Sends one outbox message: the activity sends and marks it sent, Temporal retries it with
 * backoff, and a message that keeps failing (or is refused for good) is marked failed,
 * where the operators' page shows it.
 */
export async function messageDeliveryWorkflow(input: MessageDeliveryInput): Promise<DeliveryOutcome> {
  const publish = (status: string) => upsertSearchAttributes([
    { key: CodAzienda, value: input.codAzienda }, { key: RecordType, value: MESSAGE_RECORD_TYPE },
    { key: RecordId, value: input.messageId }, { key: RecordStatus, value: status },
  ]);
  publish('pending');
  try {
    const outcome = await delivery.deliverOutboxMessage(input);
    publish(outcome === 'sent' ? 'sent' : 'skipped');
    return outcome;
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    await bookkeeping.markOutboxMessageFailed({ ...input, error: causeMessage(err) });
    publish('failed');
    return 'failed';
  }
}

/** The safety net: starts a delivery for every pending message whose start was lost (a crash after the commit). */
export async function outboxSweepWorkflow(): Promise<{ started: number }> {
  try {
    return await bookkeeping.sweepOutbox();
  } catch (err) {
    // The next run of the schedule sweeps again; a failed sweep is not an error to keep.
    throw ApplicationFailure.create({ type: 'SWEEP_FAILED', message: causeMessage(err), nonRetryable: true });
  }
}
