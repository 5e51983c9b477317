/** Delivery of the outbox's messages: one short workflow per message, and a sweep on a schedule. */

/** The one place that builds a message's workflow id: `message:<cod_azienda>:<id>`; a second start is harmless. */
export const messageWorkflowId = (codAzienda: string, messageId: string) => `message:${codAzienda}:${messageId}`;
export const MESSAGE_DELIVERY_WORKFLOW_TYPE = 'messageDeliveryWorkflow';
export const MESSAGE_RECORD_TYPE = 'message';
export const OUTBOX_SWEEP_WORKFLOW_TYPE = 'outboxSweepWorkflow';
export const OUTBOX_SWEEP_SCHEDULE_ID = 'outbox-sweep';

export const MESSAGE_STATUSES = ['pending', 'sent', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export interface MessageDeliveryInput { codAzienda: string; messageId: string }
/** skipped: already sent, given up, or gone (erased) when the workflow ran. */
export type DeliveryOutcome = 'sent' | 'failed' | 'skipped';

/**
 * Attempts before a message is marked failed: with the backoff below (30 s doubling, at most
 * 30 min) the relay has about an hour to come back.
 */
export const MAX_DELIVERY_ATTEMPTS = 8;
export const DELIVERY_RETRY = { initialInterval: '30 seconds', backoffCoefficient: 2, maximumInterval: '30 minutes', maximumAttempts: MAX_DELIVERY_ATTEMPTS } as const;
/** The relay refused the message for good (5xx): retrying will not change it. */
export const SMTP_REJECTED = 'SMTP_REJECTED';
/** A pending message older than this with no delivery under way is started by the sweep. */
export const SWEEP_AFTER_SECONDS = 60;
