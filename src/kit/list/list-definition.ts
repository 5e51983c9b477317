import type { Knex } from 'knex';
import type { z } from 'zod';
import type { Role } from '../roles';

/**
 * The type of a sort key's values, so a cursor's values are checked before they reach SQL
 * (a tampered cursor is a 422, never a database error).
 */
export type SortKeyType = 'timestamp' | 'text' | 'integer' | 'number' | 'uuid' | 'boolean';

export interface SortKey {
  /** A column (qualified when the list joins: 'm.created_at'); an index must list it in this order. */
  column: string;
  type: SortKeyType;
  /**
   * The column may hold null. Nulls sort as PostgreSQL sorts them by default (the greatest value: last
   * ascending, first descending), so one ascending index, read backwards, serves both directions.
   */
  nullable?: boolean;
  /**
   * 'last': nulls last in both directions (a never-seen user, an unscored draft), at the price of a
   * second index for the descending form (`k desc nulls last, id desc`).
   */
  nulls?: 'last';
}

/** How a filter narrows the list, with a sample value the query-plan test explains the list with. */
export interface ListFilter<V> {
  // Method syntax on purpose: a list of typed filters is still a ListDefinition for the registry.
  apply(qb: Knex.QueryBuilder, value: V): void;
  sample: V;
  /** Always given by the caller (the recipient of a notification list): the plan test includes it in every query. */
  always?: boolean;
}

export type ListFilters<F> = { [K in keyof F]-?: ListFilter<NonNullable<F[K]>> };

/** Who a list is read for: one tenant (an explicit `where <tenant column> = ?`), or the whole platform. */
export type ListScope = { tenant: string } | { platform: true };
export const tenantScope = (codAzienda: string): ListScope => ({ tenant: codAzienda });
/** Platform-wide reads (a superadmin's views, under withPlatform): no tenant predicate, on purpose. */
export const PLATFORM_SCOPE: ListScope = { platform: true };

/**
 * One list of the product. A sort is named by its ascending form ('created_at'); '-created_at'
 * reads the same keys all descending. Every key list ends with a unique column, so the order is total
 * and a cursor (the last row's key values) names one place in it.
 */
export interface ListDefinition<F extends Record<string, unknown> = Record<string, unknown>> {
  /** Unique across the product (the registry and the plan test name lists by it). */
  name: string;
  /** The table whose rows are listed: the plan test checks it is never read by a sequential scan. */
  table: string;
  /** The FROM of the list (a join, an alias, a fixed condition); default `db(table)`. */
  from?: (db: Knex) => Knex.QueryBuilder;
  /** The tenant column (qualified as in `from`), or null for platform data that belongs to no tenant. */
  tenantColumn: string | null;
  /** The scopes it is read in: 'tenant' (withTenant) and/or 'platform' (withPlatform). */
  scopes: readonly ('tenant' | 'platform')[];
  /** Selected columns (qualified as in `from`); raw expressions allowed. */
  columns: (db: Knex) => readonly (string | Knex.Raw)[];
  sorts: Record<string, readonly SortKey[]>;
  defaultSort: string;
  filters: ListFilters<F>;
  /** Free-text search: `like` is the escaped '%term%' pattern. */
  search?: { apply: (qb: Knex.QueryBuilder, like: string, term: string) => void; sample: string };
  limit: { default: number; max: number };
  /** How the list is exported (GET /api/export/<name>, CSV or XLSX); a list without it is not exported. */
  export?: ListExport;
}

/**
 * A list's export: the same readers and filters as the list's own route, and the Italian column
 * headers. Only tenant lists are exported (the export reads in the caller's active tenant).
 */
export interface ListExport {
  /** The name in GET /api/export/<entity> (default: the list's name). */
  entity?: string;
  /** The roles of the list's route: whoever may read the list may export it, nobody else. */
  roles: readonly Role[];
  /** The list route's zod query (its filters, q and sort; limit, offset and cursor are ignored), as a thunk: the schema usually imports the list. */
  query: () => z.ZodType;
  /** Exported columns in order, with their Italian headers; a column not named here is not exported. */
  columns: Readonly<Record<string, string>>;
  /** Italian labels of coded values, per column (stato 'open' -> 'Aperto'); a code without a label is exported as is. */
  values?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** What the list's route does to the parsed query for its caller (`assegnatario=me` -> the caller's id). */
  forCaller?: (query: Record<string, unknown>, codUtente: string) => Record<string, unknown>;
  /**
   * Rows guarded by a policy on the reader's role (the SOS reports, docs/sos.md "Tipping-off"): each
   * page is read under the caller's signed principal, so the database shows only what the caller may
   * see; `auditPage` records the rows written in the area's own trail, in the page's transaction; and
   * nothing goes to the tenant's audit chain, which other roles read.
   */
  confidential?: { auditPage: (trx: Knex.Transaction, rows: readonly Record<string, unknown>[], e: ConfidentialExportEvent) => Promise<void> };
}

/** What an export of confidential rows tells its area's audit trail. */
export interface ConfidentialExportEvent { codAzienda: string; actor: string; formato: string; filters: Record<string, unknown> }

/** Identity with inference: a list is declared once, next to its area's repo. */
export const defineList = <F extends Record<string, unknown>>(def: ListDefinition<F>): ListDefinition<F> => def;

/** The ordered key list of a sort name ('-x' or 'x'), or undefined when the list has no such sort. */
export function sortKeysOf(def: Pick<ListDefinition, 'sorts'>, sort: string): { keys: readonly SortKey[]; desc: boolean } | undefined {
  const desc = sort.startsWith('-');
  const keys = def.sorts[desc ? sort.slice(1) : sort];
  return keys ? { keys, desc } : undefined;
}

/** Every sort name a list accepts: each declared sort, ascending and descending. */
export const sortNamesOf = (def: { sorts: Record<string, unknown> }): string[] =>
  Object.keys(def.sorts).flatMap((s) => [s, `-${s}`]);
