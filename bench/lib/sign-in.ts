import { TestClient } from '../../test/helpers/http-client';
import { nextTotpCode } from '../../test/helpers/totp';

/**
 * Signs a user in through the pages, as a browser would: password, then the TOTP step. A user
 * without an authenticator yet (the demo users on a new installation) enrols one on the way,
 * with the secret the setup page shows; pass that secret back to sign the same user in again.
 */
export async function signIn(baseUrl: string, user: { username: string; password: string; totpSecret?: string }): Promise<{ client: TestClient; totpSecret: string }> {
  const client = new TestClient(baseUrl);
  const login = await client.submitForm('/login', { username: user.username, password: user.password });
  const step = login.headers.get('location') ?? '';
  if (login.status !== 302 || !/^\/totp\/(setup|verify)/.test(step)) throw new Error(`sign-in of ${user.username} refused: ${login.status} ${step}`);
  let secret = user.totpSecret;
  if (step.startsWith('/totp/setup')) {
    const page = await client.get('/totp/setup', { accept: 'text/html' });
    secret = page.text.match(/data-totp-secret="([A-Z2-7]+)"/)?.[1];
    if (!secret) throw new Error('no TOTP secret on the setup page');
  }
  if (!secret) throw new Error(`${user.username} has an authenticator: give its TOTP secret`);
  const done = await client.submitForm(step.startsWith('/totp/setup') ? '/totp/setup' : '/totp/verify', { code: nextTotpCode(secret) });
  if (done.status !== 302 || /\/totp\/|\/login/.test(done.headers.get('location') ?? '')) throw new Error(`TOTP step of ${user.username} refused: ${done.status} ${done.headers.get('location')}`);
  return { client, totpSecret: secret };
}
