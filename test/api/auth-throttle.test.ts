import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ADDRESS_POLICY, blockedFor, recordFailure, recordSuccess } from '../../src/domains/auth/login.throttle';
import { getTestEnv, type TestEnv } from '../helpers/env';

// The per-address limit is exercised through the module with documentation addresses
// (RFC 5737), so the loopback address the other suites sign in from is never blocked.
describe('auth: sign-in throttling store', function () {
  this.timeout(60_000);
  let env: TestEnv;
  before(async () => { env = await getTestEnv(); });

  it('blocks an address after 20 failures across different accounts', async () => {
    const ip = `203.0.113.${1 + Math.floor(Math.random() * 250)}`;
    const names = Array.from({ length: ADDRESS_POLICY.maxFailures }, () => `spray_${randomBytes(4).toString('hex')}`);
    for (const [i, username] of names.entries()) {
      assert.equal(await blockedFor(env.deps.platformDb, { username, ip }), 0, `before failure ${i + 1}`);
      const blocked = await recordFailure(env.deps.platformDb, { username, ip });
      assert.equal(blocked > 0, i === names.length - 1);
    }
    const wait = await blockedFor(env.deps.platformDb, { username: 'someone_else', ip });
    assert.ok(wait > 14 * 60 && wait <= 15 * 60, String(wait));
    assert.equal(await blockedFor(env.deps.platformDb, { username: 'someone_else', ip: '198.51.100.1' }), 0);
  });

  it('starts a new window when the old one is over, and success clears the account counter', async () => {
    const username = `window_${randomBytes(4).toString('hex')}`;
    const ip = '198.51.100.77';
    for (let i = 0; i < 4; i++) await recordFailure(env.deps.platformDb, { username, ip });
    await env.ownerDb('login_throttle').where({ key: `user:${username}` }).update({ window_start: new Date(Date.now() - 16 * 60_000) });
    assert.equal(await recordFailure(env.deps.platformDb, { username, ip }), 0, 'the old failures no longer count');
    const row = await env.ownerDb('login_throttle').where({ key: `user:${username}` }).first();
    assert.equal(row.failures, 1);
    await recordSuccess(env.deps.platformDb, { username, ip });
    assert.equal(await env.ownerDb('login_throttle').where({ key: `user:${username}` }).first(), undefined);
  });

  it('counts usernames case-insensitively', async () => {
    const base = `Case_${randomBytes(4).toString('hex')}`;
    const ip = '198.51.100.78';
    for (let i = 0; i < 4; i++) await recordFailure(env.deps.platformDb, { username: i % 2 ? base.toUpperCase() : base.toLowerCase(), ip });
    assert.ok((await recordFailure(env.deps.platformDb, { username: ` ${base} `, ip })) > 0);
    assert.ok((await blockedFor(env.deps.platformDb, { username: base, ip: '198.51.100.79' })) > 0);
  });
});
