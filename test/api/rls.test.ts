import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { migrationsDir, prepareDatabase } from '../../src/db/bootstrap';
import { databaseSetup } from '../../src/config';
import { createKnex, deriveRoleUrl } from '../../src/db/knex';
import { PLATFORM_POLICY, TENANT_POLICY } from '../../src/db/rls';
import { tenantSignature } from '../../src/db/tenant-key';
import { withPlatform, withTenant } from '../../src/db/tenant';
import { appendAudit } from '../../src/domains/audit/audit.chain';
import { testAction } from '../helpers/audit';
import { getTestEnv, type TestEnv } from '../helpers/env';

/** The SOS tables' tipping-off policy (migrations/20261210000100_create_sos.ts). */
const SOS_POLICY = 'sos_confidential';
/** A filing made from an SOS is reserved to the report's roles (migrations/20261215000100_sos_filing_lists.ts). */
const RESERVED_FILING_POLICY = 'filings_riservate';

interface TableSecurity {
  relname: string;
  relrowsecurity: boolean;
  relforcerowsecurity: boolean;
  policies: number;
  owner: string;
}

describe('row-level security catalogue and behaviour (as the application role)', () => {
  let env: TestEnv;
  let a: string;
  let b: string;

  before(async () => {
    env = await getTestEnv();
    [a, b] = [await env.createTenant(), await env.createTenant()];
    await env.createUser({ tenant: a, roles: ['analyst'] });
    await env.createUser({ tenant: b, roles: ['analyst'] });
  });

  it('every public table with cod_azienda has RLS enabled and forced, with a policy', async () => {
    const { rows } = await env.deps.db.raw<{ rows: TableSecurity[] }>(`
      select c.relname, c.relrowsecurity, c.relforcerowsecurity,
             (select count(*) from pg_policy p where p.polrelid = c.oid)::int as policies,
             pg_get_userbyid(c.relowner) as owner
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p')
         and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'cod_azienda' and a.attnum > 0 and not a.attisdropped)
       order by c.relname`);
    const names = rows.map((r) => r.relname);
    for (const t of ['aziende', 'utenti', 'settings', 'audit_events', 'notifications']) assert.ok(names.includes(t), `${t} not found`);
    const weak = rows.filter((r) => !r.relrowsecurity || !r.relforcerowsecurity || r.policies < 1);
    assert.deepEqual(weak.map((r) => r.relname), [], `tables without enforced RLS: ${JSON.stringify(weak)}`);
  });

  it('the application role owns no such table, is not superuser and cannot bypass RLS', async () => {
    const { rows: [me] } = await env.deps.db.raw(
      'select current_user as name, r.rolsuper, r.rolbypassrls from pg_roles r where r.rolname = current_user');
    assert.equal(me.name, env.deps.config.appDbRole);
    assert.equal(me.rolsuper, false);
    assert.equal(me.rolbypassrls, false);
    const { rows: owned } = await env.deps.db.raw(`
      select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and pg_get_userbyid(c.relowner) = current_user`);
    assert.deepEqual(owned, []);
  });

  it('inside tenant A, tables read without a where clause show no row of tenant B', async () => {
    const seen = await withTenant(env.deps.db, { codAzienda: a }, async (trx) => ({
      utenti: await trx('utenti').select('cod_azienda'),
      audit: await trx('audit_events').select('cod_azienda'),
      aziende: await trx('aziende').select('cod_azienda'),
    }));
    assert.ok(seen.utenti.length >= 1 && seen.audit.length >= 2);
    for (const [table, rows] of Object.entries(seen)) {
      assert.deepEqual([...new Set(rows.map((r: { cod_azienda: string }) => r.cod_azienda))], [a], `${table} leaked another tenant`);
    }
    const outside = await env.deps.db('utenti').count<{ n: number }[]>({ n: '*' });
    assert.equal(Number(outside[0]!.n), 0, 'no tenant set: nothing visible');
  });

  it('writing a row of another tenant fails the policy check (WITH CHECK)', async () => {
    await assert.rejects(
      withTenant(env.deps.db, { codAzienda: a }, (trx) => trx('settings').insert({ cod_azienda: b, chiave: 'rls-test', valore: JSON.stringify({ x: 1 }) })),
      /row-level security/,
    );
    await assert.rejects(
      withTenant(env.deps.db, { codAzienda: a }, (trx) => appendAudit(trx, { codAzienda: b, actor: 'x', action: testAction('rls'), entityType: 't', entityId: '1' })),
      /row-level security/,
    );
    await assert.rejects(
      withTenant(env.deps.db, { codAzienda: a }, async (trx) => {
        const [u] = await trx('utenti').select('cod_utente').limit(1);
        await trx('notifications').insert({ id: randomUUID(), cod_azienda: b, cod_utente: u.cod_utente, tipo: 't', titolo: 't' });
      }),
      /row-level security/,
    );
    // Moving a visible row to another tenant is refused as well.
    await assert.rejects(
      withTenant(env.deps.db, { codAzienda: a }, (trx) => trx('utenti').update({ cod_azienda: b })),
      /row-level security/,
    );
    const bSettings = await withTenant(env.deps.db, { codAzienda: b }, (trx) => trx('settings').where({ chiave: 'rls-test' }));
    assert.equal(bSettings.length, 0);
  });

  describe('SQL run as the application role cannot choose its tenant', () => {
    let raw: Knex;
    before(() => {
      // A pool of its own: what these tests set on a connection must not reach the shared pool.
      const { appDbRole, appDbPassword } = env.deps.config;
      raw = createKnex(deriveRoleUrl(env.ownerUrl, appDbRole, appDbPassword), { max: 1 });
    });
    after(() => raw.destroy());

    /** What tenant A's transaction sees after running `attack` (as an injection would). */
    const tenantsSeen = (attack: (trx: Knex.Transaction) => Promise<unknown>) =>
      withTenant(env.deps.db, { codAzienda: a }, async (trx) => {
        await attack(trx);
        const rows = await trx('utenti').distinct('cod_azienda').pluck('cod_azienda');
        const settings = await trx('aziende').distinct('cod_azienda').pluck('cod_azienda');
        return [...new Set([...rows, ...settings])].sort();
      });

    it('setting app.scope, another tenant, or a made-up or replayed signature shows no other tenant', async () => {
      const set = (name: string, value: string) => (trx: Knex.Transaction) => trx.raw('select set_config(?, ?, true)', [name, value]);
      const both = (...steps: ((trx: Knex.Transaction) => Promise<unknown>)[]) => async (trx: Knex.Transaction) => { for (const s of steps) await s(trx); };
      assert.deepEqual(await tenantsSeen(async () => undefined), [a], 'the signed tenant is visible');
      assert.deepEqual(await tenantsSeen(set('app.scope', 'platform')), [a]);
      assert.deepEqual(await tenantsSeen(set('app.cod_azienda', b)), [], 'another tenant without its signature: nothing');
      assert.deepEqual(await tenantsSeen(both(set('app.cod_azienda', b), set('app.tenant_sig', 'f'.repeat(64)))), []);
      assert.deepEqual(await tenantsSeen(both(set('app.cod_azienda', b), set('app.tenant_sig', tenantSignature('a guessed key', b)))), []);
      const ownSig = await withTenant(env.deps.db, { codAzienda: a }, (trx) => trx.raw("select current_setting('app.tenant_sig') as s"));
      assert.deepEqual(await tenantsSeen(both(set('app.cod_azienda', b), set('app.tenant_sig', ownSig.rows[0].s))), [], "A's signature does not open B");
      assert.deepEqual(await tenantsSeen((trx) => trx.raw('reset app.cod_azienda')), [], 'reset: no tenant at all');
      // Outside any transaction of withTenant, session-level settings do not help either.
      await raw.raw("select set_config('app.cod_azienda', ?, false), set_config('app.scope', 'platform', false)", [b]);
      assert.deepEqual(await raw('utenti').count<{ n: number }[]>({ n: '*' }).then((r) => Number(r[0]!.n)), 0);
    });

    it('the definer function answers only the signed tenant; the key, the sessions and the platform role are out of reach', async () => {
      assert.equal((await withTenant(env.deps.db, { codAzienda: a }, (trx) => trx.raw('select app_current_tenant() as t'))).rows[0].t, a);
      assert.equal((await raw.raw("select set_config('app.cod_azienda', ?, false), app_current_tenant() as t", [b])).rows[0].t, null);
      const denied = async (sql: string, bindings: string[] = []) => {
        await assert.rejects(withTenant(env.deps.db, { codAzienda: a }, (trx) => trx.raw(sql, bindings)), /permission denied|must be owner|must be member|not allowed/, sql);
      };
      await denied('select * from tenant_guard.config');
      await denied('select * from sessions');
      await denied("update sessions set tenant_attivo = 'X'");
      await denied('select * from login_throttle');
      await denied(`set role ${env.deps.config.platformDbRole}`);
      await denied(`set session authorization ${env.deps.config.platformDbRole}`);
      await denied('alter table utenti disable row level security');
      await denied('drop policy tenant_isolation on utenti');
      await denied('create function public.app_current_tenant_x() returns text language sql as $$ select 1::text $$');
      await denied("insert into screening_list_versions (list_name) values ('x')");
      await denied('create temp table cases (id int)');
      await assert.rejects(withPlatform(env.deps.platformDb, 'test', (trx) => trx.raw('select * from tenant_guard.config')), /permission denied/);
      // The platform role is no bypass either: no superuser, no BYPASSRLS, owns nothing.
      const { rows: [platform] } = await env.ownerDb.raw(
        `select r.rolsuper, r.rolbypassrls, (select count(*) from pg_class c where c.relowner = r.oid)::int as owned
           from pg_roles r where r.rolname = ?`, [env.deps.config.platformDbRole]);
      assert.deepEqual(platform, { rolsuper: false, rolbypassrls: false, owned: 0 });
    });

    it('cannot make, change or remove a superadmin, even in its own tenant (the way out of a tenant)', async () => {
      const analyst = await env.createUser({ tenant: a, roles: ['analyst'] });
      const tenantSuper = await env.createUser({ tenant: a, roles: ['superadmin'] });
      const inA = (fn: (trx: Knex.Transaction) => Promise<unknown>) => withTenant(env.deps.db, { codAzienda: a }, fn);
      const refused = /only the platform role may write a superadmin/;
      await assert.rejects(inA((trx) => trx('utenti').where({ cod_utente: analyst.cod_utente }).update({ ruoli: ['analyst', 'superadmin'] })), refused);
      await assert.rejects(inA((trx) => trx('utenti').where({ cod_utente: tenantSuper.cod_utente }).update({ password_hash: 'x' })), refused);
      await assert.rejects(inA((trx) => trx('utenti').where({ cod_utente: tenantSuper.cod_utente }).delete()), refused);
      await assert.rejects(inA((trx) => trx('utenti').insert({ cod_utente: randomUUID(), cod_azienda: a, username: `sa_${randomUUID()}`, email: 'x@example.test', nome: 'x', cognome: 'x', password_hash: 'x', ruoli: ['superadmin'] })), refused);
      // Anyone else of the tenant is still the application's to manage; the platform role manages superadmins.
      assert.equal(await inA((trx) => trx('utenti').where({ cod_utente: analyst.cod_utente }).update({ nome: 'Cambiato' })), 1);
      assert.equal(await withPlatform(env.deps.platformDb, 'test', (trx) => trx('utenti').where({ cod_utente: tenantSuper.cod_utente }).update({ nome: 'Cambiato' })), 1);
    });

    it('a session row cannot move a tenant user into another tenant', async () => {
      const user = await env.createUser({ tenant: a, roles: ['analyst'] });
      const client = await env.login(user);
      // As if an injection had rewritten the row (the application role cannot: see above).
      await env.ownerDb('sessions').where({ cod_utente: user.cod_utente }).update({ tenant_attivo: b });
      const me = await client.get('/auth/me');
      assert.equal(me.status, 200);
      assert.equal(me.body.tenant, a);
    });
  });

  it('every tenant table has exactly the signed-tenant policy and the platform role\'s policy', async () => {
    const { rows } = await env.ownerDb.raw<{ rows: { tablename: string; policyname: string; roles: string; qual: string; with_check: string }[] }>(`
      select p.tablename, p.policyname, p.roles::text as roles, p.qual, p.with_check
        from pg_policies p
       where p.schemaname = 'public'
         and exists (select 1 from information_schema.columns c where c.table_schema = 'public' and c.table_name = p.tablename and c.column_name = 'cod_azienda')
       order by p.tablename, p.policyname`);
    const tables = [...new Set(rows.map((r) => r.tablename))];
    assert.ok(tables.length >= 20, `only ${tables.length} tenant tables`);
    for (const t of tables) {
      // The SOS tables add one restrictive policy (tipping-off, docs/sos.md): checked apart, below.
      // So does the filings table for the filings made from an SOS, checked apart too.
      const mine = rows.filter((r) => r.tablename === t && r.policyname !== SOS_POLICY && !(t === 'filings' && r.policyname === RESERVED_FILING_POLICY));
      assert.deepEqual(mine.map((r) => r.policyname), [PLATFORM_POLICY, TENANT_POLICY], t);
      const [platform, tenant] = mine as [typeof rows[0], typeof rows[0]];
      assert.equal(tenant.roles, '{public}', t);
      assert.match(tenant.qual, /^\(cod_azienda = \( SELECT app_current_tenant\(\) AS app_current_tenant\)\)$/, t);
      assert.equal(tenant.with_check, tenant.qual, t);
      assert.equal(platform.roles, `{${env.deps.config.platformDbRole}}`, t);
      assert.equal(platform.qual, 'true', t);
      assert.equal(platform.with_check, 'true', t);
    }
    assert.deepEqual(rows.filter((r) => /app\.scope/.test(`${r.qual} ${r.with_check}`)), []);
    // Exactly the SOS tables carry it, and the document spine for its SOS attachments (docs/document-spine.md),
    // restrictive and for every role, reading the signed principal.
    const { rows: sos } = await env.ownerDb.raw<{ rows: { tablename: string; permissive: string; roles: string; qual: string }[] }>(
      "select tablename, permissive, roles::text as roles, qual from pg_policies where schemaname = 'public' and policyname = ? order by tablename", [SOS_POLICY]);
    assert.ok(sos.length >= 10 && sos.every((r) => r.tablename.startsWith('sos_') || r.tablename === 'documenti_spine'), JSON.stringify(sos.map((r) => r.tablename)));
    for (const r of sos) {
      assert.deepEqual([r.permissive, r.roles], ['RESTRICTIVE', '{public}'], r.tablename);
      assert.match(r.qual, r.tablename === 'sos_reports' ? /app_current_roles\(\).*app_current_user\(\)/s : /sos_reports/, r.tablename);
    }
    const { rows: reserved } = await env.ownerDb.raw<{ rows: { tablename: string; permissive: string; roles: string; qual: string; with_check: string }[] }>(
      "select tablename, permissive, roles::text as roles, qual, with_check from pg_policies where schemaname = 'public' and policyname = ?", [RESERVED_FILING_POLICY]);
    assert.deepEqual(reserved.map((r) => [r.tablename, r.permissive, r.roles]), [['filings', 'RESTRICTIVE', '{public}']]);
    assert.match(reserved[0]!.qual, /riservata.*app_current_roles\(\).*sos.*co/s);
    assert.equal(reserved[0]!.with_check, reserved[0]!.qual);
  });

  it('a tenant list query uses the index on cod_azienda (the predicate is an InitPlan value, not an OR)', async () => {
    const plan = await withTenant(env.deps.db, { codAzienda: a }, async (trx) => {
      // Small test tables make a sequential scan cheapest; forbid it to see whether an index can serve the policy.
      await trx.raw('set local enable_seqscan = off');
      const { rows } = await trx.raw('explain (format json) select * from cases order by created_at desc limit 25');
      return JSON.stringify(rows[0]['QUERY PLAN']);
    });
    assert.match(plan, /"Index Cond":"\(cod_azienda = /, plan);
    assert.match(plan, /InitPlan/, plan);
  });

  it('the platform role sees every tenant, and the application role only through a signed tenant', async () => {
    const seen = await withPlatform(env.deps.platformDb, 'test', (trx) => trx('utenti').whereIn('cod_azienda', [a, b]).distinct('cod_azienda').pluck('cod_azienda'));
    assert.deepEqual(seen.sort(), [a, b].sort());
    const { rows: [me] } = await withPlatform(env.deps.platformDb, 'test', (trx) => trx.raw('select current_user as name'));
    assert.equal(me.name, env.deps.config.platformDbRole);
    await assert.rejects(withTenant(env.ownerDb, { codAzienda: a }, async () => undefined), /application pool/);
    // @ts-expect-error the application pool is not the platform pool (typecheck fails if it were accepted)
    const appPoolAsPlatform: Parameters<typeof withPlatform>[0] = env.deps.db;
    assert.notEqual(appPoolAsPlatform, env.deps.platformDb);
  });

  it('the policy migration goes down to the old policies and up again', async () => {
    const name = '20261122000100_rewrite_tenant_policies.ts';
    const opts = { directory: migrationsDir, loadExtensions: ['.ts'], name };
    const policies = async () => (await env.ownerDb.raw<{ rows: { policyname: string; qual: string }[] }>(
      "select policyname, qual from pg_policies where schemaname = 'public' and tablename = 'utenti' order by policyname")).rows;
    await env.ownerDb.migrate.down(opts);
    try {
      const old = await policies();
      assert.deepEqual(old.map((p) => p.policyname), [TENANT_POLICY]);
      assert.match(old[0]!.qual, /app\.scope/);
    } finally {
      await env.ownerDb.migrate.up(opts);
    }
    assert.deepEqual((await policies()).map((p) => p.policyname), [PLATFORM_POLICY, TENANT_POLICY]);
  });

  it('preparing the database again changes nothing and points platform policies at the configured role', async () => {
    const { appDbRole, platformDbRole } = env.deps.config;
    await env.ownerDb.raw(`alter policy ${PLATFORM_POLICY} on settings to ${appDbRole}`);
    assert.deepEqual(await prepareDatabase(env.ownerDb, databaseSetup(env.deps.config)), []);
    const { rows } = await env.ownerDb.raw("select roles::text as roles from pg_policies where tablename = 'settings' and policyname = ?", [PLATFORM_POLICY]);
    assert.equal(rows[0].roles, `{${platformDbRole}}`);
    assert.deepEqual(await withTenant(env.deps.db, { codAzienda: a }, (trx) => trx('aziende').pluck('cod_azienda')), [a]);
  });
});
