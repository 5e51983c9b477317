import assert from 'node:assert/strict';
import { SecretBox } from '../../src/lib/secret-box';

describe('SecretBox', () => {
  const box = new SecretBox('test-key-material');
  it('round-trips a secret and never stores it in clear', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    assert.ok(sealed.startsWith('v1:'));
    assert.ok(!sealed.includes('JBSWY3DPEHPK3PXP'));
    assert.equal(box.open(sealed), 'JBSWY3DPEHPK3PXP');
    assert.notEqual(box.seal('JBSWY3DPEHPK3PXP'), sealed, 'a fresh nonce each time');
  });
  it('refuses a tampered value or another key', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] ^= 1;
    assert.throws(() => box.open(`v1:${raw.toString('base64url')}`));
    assert.throws(() => new SecretBox('other key').open(sealed));
    assert.throws(() => box.open('JBSWY3DPEHPK3PXP'));
  });
});
