import { Context } from '@temporalio/activity';
import { dispatcher, type DispatchMessages } from '../../src/domains/outbox/outbox.dispatch';
import { createOutbox, type Outbox } from '../../src/domains/outbox/outbox.enqueue';
import { createMailSender, type MailSender } from '../../src/infra/mail/mail-sender';
import type { Config } from '../../src/config';
import type { Logger } from '../../src/infra/logger';

/**
 * The part of the activities' dependencies messaging reads. Named here rather than taken from
 * activities/deps.ts, which names the outbox's dispatcher type: the outbox must not import back.
 */
export interface MessagingDeps {
  logger: Pick<Logger, 'warn'>;
  config: Pick<Config, 'secretBoxKey' | 'publicBaseUrl' | 'mail'>;
  mail?: MailSender;
  dispatch?: DispatchMessages;
}

export interface Messaging {
  outbox: Outbox;
  mail: () => MailSender;
  /** Hands queued messages to their delivery (call after the commit). */
  dispatch: DispatchMessages;
}

const inActivity = () => {
  try {
    return Context.current();
  } catch {
    return undefined;
  }
};

/** The worker's own client and task queue, when called as an activity. */
const fromActivityContext = (deps: MessagingDeps): DispatchMessages => async (messages) => {
  const ctx = inActivity();
  if (!ctx || !messages.length) return;
  await dispatcher(async () => ctx.client, ctx.info.taskQueue, deps.logger)(messages);
};

const built = new WeakMap<MessagingDeps, Messaging>();

/** The outbox, the relay and the dispatcher for a set of activities, with their defaults: one per deps, shared by every area. */
export function messaging(deps: MessagingDeps): Messaging {
  const known = built.get(deps);
  if (known) return known;
  let sender = deps.mail;
  const m: Messaging = {
    outbox: createOutbox(deps.config),
    mail: () => (sender ??= createMailSender(deps.config.mail)),
    dispatch: deps.dispatch ?? fromActivityContext(deps),
  };
  built.set(deps, m);
  return m;
}
