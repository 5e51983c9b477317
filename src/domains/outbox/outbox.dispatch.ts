import type { Client } from '@temporalio/client';
import { recordSearchAttributes } from '../../../temporal/search-attributes';
import {
  MESSAGE_DELIVERY_WORKFLOW_TYPE, MESSAGE_RECORD_TYPE, messageWorkflowId, type MessageDeliveryInput,
} from '../../../workflows/outbox/outbox.contract';
import type { QueuedMessage } from './outbox.enqueue';

/** Hands committed messages to their delivery. */
export type DispatchMessages = (messages: QueuedMessage[]) => Promise<void>;

/**
 * Starts one delivery workflow per message. Its id is the message's, so a second start (the
 * sweep, a retry) joins the delivery under way instead of sending again.
 */
export async function startDeliveries(client: Client, taskQueue: string, messages: QueuedMessage[]): Promise<void> {
  for (const m of messages) {
    const input: MessageDeliveryInput = { codAzienda: m.codAzienda, messageId: m.id };
    await client.workflow.start(MESSAGE_DELIVERY_WORKFLOW_TYPE, {
      workflowId: messageWorkflowId(m.codAzienda, m.id), taskQueue, args: [input], workflowIdConflictPolicy: 'USE_EXISTING',
      typedSearchAttributes: recordSearchAttributes({ codAzienda: m.codAzienda, recordType: MESSAGE_RECORD_TYPE, recordId: m.id, status: 'pending' }),
    });
  }
}

/**
 * After the commit, a failed start is only logged: the message is in the outbox and the
 * sweep (every minute) starts its delivery. The cause's answer does not depend on the relay.
 */
export function dispatcher(client: () => Promise<Client>, taskQueue: string, log: { warn(o: object, m: string): void }): DispatchMessages {
  return async (messages) => {
    if (!messages.length) return;
    try {
      await startDeliveries(await client(), taskQueue, messages);
    } catch (err) {
      log.warn({ err, messages: messages.map((m) => m.id) }, 'message delivery not started; the outbox sweep will start it');
    }
  };
}
