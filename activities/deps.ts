import type { Knex } from 'knex';
import type { Logger } from '../src/infra/logger';

/** What activities may touch: the database (as the RLS-bound application role) and the log. */
export interface ActivityDeps {
  db: Knex;
  logger: Logger;
}
