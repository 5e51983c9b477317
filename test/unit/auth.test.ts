import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { safeNext } from '../../src/domains/auth/auth.session';
import { currentStep, enrolmentData, groupedSecret, matchTotpStep, newTotpSecret } from '../../src/domains/auth/totp';

describe('auth: next parameter', () => {
  it('keeps same-site paths with their query', () => {
    assert.equal(safeNext('/casi?stato=open'), '/casi?stato=open');
    assert.equal(safeNext('/'), '/');
  });
  it('drops anything that could leave the site or loop back into sign-in', () => {
    for (const bad of ['//evil.example', 'https://evil.example', '/\\evil.example', '/\t/evil.example', 'casi', '', undefined, 42, ['/casi'], '/login?next=/x', '/logout', '/totp/verify']) {
      assert.equal(safeNext(bad), '/', String(bad));
    }
    assert.equal(safeNext('//x', ''), '');
  });
});

describe('auth: TOTP', () => {
  const secret = newTotpSecret();
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  const now = Date.UTC(2026, 0, 15, 10, 0, 10);
  const step = currentStep(now);

  it('returns the step of a code, allowing one step of drift either way', () => {
    assert.equal(matchTotpStep(secret, totp.generate({ timestamp: now }), now), step);
    assert.equal(matchTotpStep(secret, totp.generate({ timestamp: now - 30_000 }), now), step - 1);
    assert.equal(matchTotpStep(secret, totp.generate({ timestamp: now + 30_000 }), now), step + 1);
  });
  it('rejects codes two steps away, malformed codes and codes of another secret', () => {
    assert.equal(matchTotpStep(secret, totp.generate({ timestamp: now - 60_000 }), now), null);
    assert.equal(matchTotpStep(secret, totp.generate({ timestamp: now + 60_000 }), now), null);
    assert.equal(matchTotpStep(secret, 'abcdef', now), null);
    assert.equal(matchTotpStep(secret, '12345', now), null);
    const other = new TOTP({ secret: Secret.fromBase32(newTotpSecret()) }).generate({ timestamp: now });
    const code = totp.generate({ timestamp: now });
    if (other !== code) assert.equal(matchTotpStep(secret, other, now), null);
  });
  it('builds the enrolment URI with issuer, account and parameters, and a PNG QR code', async () => {
    const e = await enrolmentData(secret, 'mario.rossi');
    assert.match(e.uri, /^otpauth:\/\/totp\/Compliance%20AML:mario\.rossi\?/);
    assert.match(e.uri, /issuer=Compliance%20AML/);
    assert.match(e.uri, /algorithm=SHA1&digits=6&period=30/);
    assert.ok(e.uri.includes(`secret=${secret}`));
    assert.match(e.qr, /^data:image\/png;base64,/);
    assert.equal(groupedSecret('ABCDEFGHIJ'), 'ABCD EFGH IJ');
  });
});
