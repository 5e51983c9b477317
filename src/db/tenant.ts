import type { Knex } from 'knex';

export type Scope = 'tenant' | 'platform';

export interface DbContext {
  /** Tenant whose rows are visible; null outside any tenant. */
  codAzienda: string | null;
  /** 'platform' lets platform operations (sign-in lookup, superadmin) see across tenants. */
  scope?: Scope;
  actor?: string | null;
}

/**
 * Runs fn in one transaction with the tenant set for row-level security.
 * The settings are transaction-local, so a pooled connection never leaks a tenant.
 */
export async function withTenant<T>(db: Knex, ctx: DbContext, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    await trx.raw(
      "select set_config('app.cod_azienda', ?, true), set_config('app.scope', ?, true), set_config('app.actor', ?, true)",
      [ctx.codAzienda ?? '', ctx.scope ?? 'tenant', ctx.actor ?? ''],
    );
    return fn(trx);
  });
}

export const withPlatform = <T>(db: Knex, actor: string | null, fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(db, { codAzienda: null, scope: 'platform', actor }, fn);
