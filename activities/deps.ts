import type { Knex } from 'knex';
import type { Config } from '../src/config';
import type { PlatformDb } from '../src/db/tenant';
import type { DispatchMessages } from '../src/domains/outbox';
import type { Logger } from '../src/infra/logger';
import type { MailSender } from '../src/infra/mail/mail-sender';

/** What activities may touch: the database (as the RLS-bound application role), the log, the mail relay and a few settings. */
export interface ActivityDeps {
  db: Knex;
  /** The platform role, for platform-wide steps only (sanctions list imports). */
  platformDb: PlatformDb;
  logger: Logger;
  config: Pick<Config, 'sessionSecret' | 'documentDir' | 'goamlDataDir' | 'publicBaseUrl' | 'secretBoxKey' | 'mail'>;
  /** The SMTP relay; built from config.mail when not given. */
  mail?: MailSender;
  /**
   * Starts the delivery of messages an activity queued, after its commit. Default: through
   * the worker's client when running as an activity; outside one (a script, a test calling
   * the function directly) the sweep delivers them.
   */
  dispatch?: DispatchMessages;
}
