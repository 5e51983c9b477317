import assert from 'node:assert/strict';
import { getTestEnv } from '../helpers/env';

describe('sessions follow the account and its tenant', () => {
  it('a user of a tenant that is deactivated loses the session at once', async () => {
    const env = await getTestEnv();
    const tenant = await env.createTenant();
    const account = await env.createUser({ tenant, roles: ['analyst'] });
    const user = await env.login(account);
    assert.equal((await user.get('/auth/me')).status, 200);
    const superadmin = await env.login(await env.createUser({ tenant: null, roles: ['superadmin'] }));
    assert.equal((await superadmin.submitForm(`/organizzazione/${tenant}/toggle`, {}, `/organizzazione/${tenant}`)).status, 302);
    assert.equal((await user.get('/auth/me')).status, 401);
    assert.equal((await user.get('/api/cases')).status, 401);
    // Reactivated, the tenant's users sign in again; the ended session stays ended.
    assert.equal((await superadmin.submitForm(`/organizzazione/${tenant}/toggle`, {}, `/organizzazione/${tenant}`)).status, 302);
    assert.equal((await user.get('/auth/me')).status, 401);
    assert.equal((await (await env.login(account)).get('/auth/me')).status, 200);
  });
});
