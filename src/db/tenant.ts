import type { Knex } from 'knex';
import { principalSignature, tenantSignature } from './tenant-key';

export interface DbContext {
  /** Tenant whose rows are visible; null outside any tenant (then no tenant row is visible). */
  codAzienda: string | null;
  actor?: string | null;
  /**
   * Who acts and with which roles (signed like the tenant): policies that depend on the role,
   * such as the SOS tables' (docs/sos.md), see only what this principal may see. Omitted: no
   * user and no roles, so those tables show nothing.
   */
  principal?: DbPrincipal | null;
}

export interface DbPrincipal { user: string; roles: readonly string[] }

/**
 * The application pool carries its tenant-context key in Knex's userParams (set by createAppDb),
 * not in module state: a module loaded twice (ESM and CJS) would otherwise lose it.
 */
export const TENANT_KEY_PARAM = 'tenantContextKey';

/**
 * Runs fn in one transaction with the tenant set for row-level security. The policy trusts
 * `app.cod_azienda` only with its signature `app.tenant_sig` (HMAC under the tenant-context
 * key, which the database role cannot read), so SQL run by the application role cannot
 * choose another tenant. The settings are transaction-local: a pooled connection never
 * leaks a tenant.
 */
export async function withTenant<T>(db: Knex, ctx: DbContext, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return withTenantFirst(db, ctx, undefined, (trx) => fn(trx));
}

/**
 * withTenant whose first statement also answers `also`: select-list expressions evaluated after
 * the tenant settings, left to right (they must be volatile function calls, which PostgreSQL
 * neither folds nor evaluates early), so a hot path reads what it needs first (a freshness
 * stamp, partitions made sure of) in the round trip that sets the tenant. fn gets that row.
 */
export async function withTenantFirst<T, R extends Record<string, unknown> = Record<string, unknown>>(
  db: Knex, ctx: DbContext, also: { sql: string; bindings: readonly Knex.Value[] } | undefined, fn: (trx: Knex.Transaction, first: R) => Promise<T>,
): Promise<T> {
  const key = (db.userParams as Record<string, unknown> | undefined)?.[TENANT_KEY_PARAM];
  if (typeof key !== 'string') throw new Error('withTenant needs the application pool (createAppDb)');
  const tenant = ctx.codAzienda ?? '';
  const principal = tenant && ctx.principal ? ctx.principal : null;
  return db.transaction(async (trx) => {
    const settings = [
      "set_config('app.cod_azienda', ?, true)", "set_config('app.tenant_sig', ?, true)", "set_config('app.actor', ?, true)",
    ];
    const bindings: Knex.Value[] = [tenant, tenant ? tenantSignature(key, tenant) : '', ctx.actor ?? ''];
    if (principal) {
      const roles = [...new Set(principal.roles)].sort();
      settings.push("set_config('app.user', ?, true)", "set_config('app.roles', ?, true)", "set_config('app.principal_sig', ?, true)");
      bindings.push(principal.user, roles.join(','), principalSignature(key, tenant, principal.user, roles));
    }
    const { rows } = await trx.raw<{ rows: R[] }>(
      `select ${settings.join(', ')}${also ? `, ${also.sql}` : ''}`,
      [...bindings, ...(also?.bindings ?? [])],
    );
    return fn(trx, rows[0]!);
  });
}

/**
 * The pool of the platform role, whose policies show every tenant. It is not a Knex, so it
 * cannot be handed to withTenant or used for a query by mistake: only withPlatform opens it.
 */
export class PlatformDb {
  readonly #knex: Knex;
  constructor(knex: Knex) { this.#knex = knex; }
  /** Runs fn in one transaction of the platform role. */
  transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> { return this.#knex.transaction(fn); }
  /**
   * One statement of the platform role outside a transaction: a single read on every request
   * (the session and its user) costs one round trip instead of three.
   */
  statement<T>(fn: (knex: Knex) => Promise<T>): Promise<T> { return fn(this.#knex); }
  destroy(): Promise<void> { return this.#knex.destroy(); }
}

/**
 * Platform-wide work (sign-in lookup, sessions, superadmin operations, seeding, list imports,
 * request limits): one transaction of the platform role, with the actor recorded.
 */
export const withPlatform = <T>(db: PlatformDb, actor: string | null, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> =>
  db.transaction(async (trx) => {
    // Session lookups on every request have no actor: they skip the round trip.
    if (actor) await trx.raw("select set_config('app.actor', ?, true)", [actor]);
    return fn(trx);
  });

/** The application's tenant-context key is not the one the database stored at the last migration. */
export class TenantKeyMismatch extends Error {
  constructor() {
    super('TENANT_CONTEXT_KEY differs from the key stored by the last migration (npm run migrate with this key): every tenant would look empty');
    this.name = 'TenantKeyMismatch';
  }
}

/** Start-up check that the database accepts this process's tenant signatures. */
export async function assertTenantKeyAccepted(db: Knex): Promise<void> {
  const probe = '_probe';
  const { rows } = await withTenant(db, { codAzienda: probe }, (trx) => trx.raw<{ rows: { t: string | null }[] }>('select app_current_tenant() as t'));
  if (rows[0]?.t !== probe) throw new TenantKeyMismatch();
}

/**
 * The same check for web and worker at start: a wrong key stops the process; a database not
 * reachable yet does not (the process starts and answers 503 until it is).
 */
export async function checkTenantKeyAtStart(db: Knex, warn: (err: unknown) => void): Promise<void> {
  await assertTenantKeyAccepted(db).catch((err) => {
    if (err instanceof TenantKeyMismatch) throw err;
    warn(err);
  });
}
