import type { Knex } from 'knex';

/**
 * Where the engine's sync and reconciliation read the platform (docs/monitoring.md, "The engine
 * process and its sync"): the primary, or a read replica (`DATABASE_REPLICA_URL`) that the engine
 * process installs at start. A replica that lags only makes the copy's stamps older than the
 * primary's: the engine's store then reads those records from the platform, so a lag costs reads,
 * never correctness. The copy, the sync records and the dead letters are written on the primary.
 */
let replica: Knex | undefined;

export function useEngineReplica(db: Knex | undefined): void {
  replica = db;
}

export const syncSourceDb = (primary: Knex): Knex => replica ?? primary;
