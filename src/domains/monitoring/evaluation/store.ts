import type { Knex } from 'knex';
import type { Giorno, ListeRiferimento, MovimentoMonitorato, ProfiloCliente, StatistichePari } from '../engine';
import type { RuleVersionData } from './rule-set';

/**
 * What every evaluation path reads, and nothing else (docs/monitoring.md, "The store"): real
 * time, the daily batch, replays and backtests all ask this interface, never the tables. The
 * platform implementation (store.platform.ts) reads the platform's own tables; the engine
 * component may answer profiles, rules and lists from its synchronised copy behind the same
 * interface, so the evaluation code does not change when it does.
 *
 * Every method runs in the caller's tenant transaction (row-level security applies) and names the
 * tenant explicitly besides.
 */
export interface MonitoringStore {
  /** The customers' profiles (declared profile, sector, risk class, relationships with their holders); customers not found are absent. */
  profiles(trx: Knex.Transaction, codAzienda: string, cods: readonly string[]): Promise<Map<string, ProfiloCliente>>;
  /**
   * The customers' movements and KYT events whose day is in [dal, al], each customer's in history
   * order (compareMovements); a customer without any has an empty list.
   */
  histories(trx: Knex.Transaction, codAzienda: string, cods: readonly string[], dal: Giorno, al: Giorno): Promise<Map<string, MovimentoMonitorato[]>>;
  /** The named lists with the version each decision records (reference lists brought up to date first). */
  lists(trx: Knex.Transaction, codAzienda: string): Promise<ListeRiferimento>;
  /** The rule versions in force. */
  activeRules(trx: Knex.Transaction, codAzienda: string): Promise<RuleVersionData[]>;
  /**
   * Its rules, lists and peer medians are the platform's tables, which the tenant's freshness
   * stamp follows: real time may keep them in memory under that stamp (evaluation/context.ts).
   */
  readonly stamped?: boolean;
  /** The peer medians in force on a day: the latest the daily batch computed on or before it (undefined: none yet). */
  peerStatistics(trx: Knex.Transaction, codAzienda: string, giorno: Giorno): Promise<StatistichePari | undefined>;
}
