import type { Knex } from 'knex';
import type { Config } from '../src/config';
import type { PlatformDb } from '../src/db/tenant';
import type { Logger } from '../src/infra/logger';

/** What activities may touch: the database (as the RLS-bound application role), the log and a few settings. */
export interface ActivityDeps {
  db: Knex;
  /** The platform role, for platform-wide steps only (sanctions list imports). */
  platformDb: PlatformDb;
  logger: Logger;
  config: Pick<Config, 'sessionSecret' | 'documentDir' | 'publicBaseUrl'>;
}
