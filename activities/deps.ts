import type { Knex } from 'knex';
import type { Config } from '../src/config';
import type { Logger } from '../src/infra/logger';

/** What activities may touch: the database (as the RLS-bound application role), the log and a few settings. */
export interface ActivityDeps {
  db: Knex;
  logger: Logger;
  config: Pick<Config, 'sessionSecret' | 'documentDir' | 'publicBaseUrl'>;
}
