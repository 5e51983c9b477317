import { Context } from '@temporalio/activity';
import { withTenant } from '../../src/db/tenant';
import { notify, type NotifyInput, type NotifyResult } from '../../src/domains/notifications';
import type { ActivityDeps } from '../deps';
import { messaging, type Messaging } from '../../src/domains/outbox';

export type NotifyUsersInput = NotifyInput;

/**
 * The key that makes a retry harmless when the workflow did not give one: the same
 * activity of the same workflow run keeps its id across attempts.
 */
function activityDedupKey(): string | null {
  try {
    const { workflowExecution: wf, activityId } = Context.current().info;
    return wf ? `activity:${wf.workflowId}:${wf.runId}:${activityId}` : null;
  } catch {
    return null; // called outside an activity (a test, a script): no implicit key
  }
}

export function createNotificationActivities(deps: ActivityDeps, m: Messaging = messaging(deps)) {
  return {
    /** Notifies users of one tenant, in-app and by e-mail; idempotent (dedup key per recipient), so Temporal may retry it freely. */
    async notifyUsers(input: NotifyUsersInput): Promise<Omit<NotifyResult, 'messages'>> {
      const dedupKey = input.dedupKey ?? activityDedupKey();
      const r = await withTenant(deps.db, { codAzienda: input.codAzienda, actor: 'system' }, (trx) => notify(trx, { ...input, dedupKey }, m.outbox));
      await m.dispatch(r.messages);
      return { created: r.created, recipients: r.recipients };
    },
  };
}
