import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { withTenant } from '../../src/db/tenant';
import { appendAudit } from '../../src/domains/audit/audit.chain';
import { getTestEnv, type TestEnv } from '../helpers/env';

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
      withTenant(env.deps.db, { codAzienda: a }, (trx) => appendAudit(trx, { codAzienda: b, actor: 'x', action: 'rls.test', entityType: 't', entityId: '1' })),
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
});
