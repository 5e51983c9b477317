// The outbox area's public surface: every area queues its messages in the transaction of
// their cause (Outbox.enqueue) and hands them to delivery after the commit (dispatch).
export { createOutbox, queued, MESSAGE_KINDS, type MessageKind, type NewMessage, type Outbox, type QueuedMessage } from './outbox.enqueue';
export { dispatcher, type DispatchMessages } from './outbox.dispatch';
export { messaging, type Messaging } from '../../../activities/outbox/messaging';
