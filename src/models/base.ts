import { Model, type QueryBuilderType, type TransactionOrKnex } from 'objection';
import type { Knex } from 'knex';

/**
 * The house's Objection base: column names are the spec's snake_case Italian identifiers and
 * the API's field names, so no name mapping (docs/architecture.md); `first()` adds a limit.
 */
export class BaseModel extends Model {
  static override useLimitInFirst = true;
  // Graph reads run on one transaction's connection: relations fetched one after the other,
  // never as parallel queries on a client that is already busy (pg warns and queues them).
  static concurrency = 1;
}

/**
 * A tenant-owned table. Its rows are read and written only inside a tenant transaction
 * (withTenant), where row-level security shows that tenant alone:
 * `of(trx)` is the one way in, so a query on the bare pool (which would see no tenant at all)
 * cannot be written by mistake.
 */
export class TenantModel extends BaseModel {
  declare cod_azienda: string;

  /** The model's query builder on a tenant transaction. */
  static of<M extends Model>(this: new () => M, trx: Knex.Transaction): QueryBuilderType<M> {
    if (!trx?.isTransaction) throw new Error(`${(this as { name: string }).name}: tenant rows are read inside withTenant (pass its transaction)`);
    return (this as unknown as typeof Model).query(trx as TransactionOrKnex) as QueryBuilderType<M>;
  }
}
