import assert from 'node:assert/strict';
import { getTestEnv } from '../helpers/env';

describe('test stack', () => {
  it('starts PostgreSQL, Temporal and the web server, and answers 404 as problem details', async () => {
    const env = await getTestEnv();
    const r = await env.client().get('/api/does-not-exist');
    assert.equal(r.status, 404);
    assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(r.body.code, 'NOT_FOUND');
    const tenant = await env.createTenant();
    const user = await env.createUser({ tenant, roles: ['analyst'] });
    assert.equal(user.cod_azienda, tenant);
  });
});
