import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkTransition, allowedActions } from '../../workflows/lib/machine';
import { esignMachine } from '../../workflows/esign/esign.machine';
import type { EsignEvidence } from '../../src/domains/esign/esign.bundle';

const signer = { id: 'signer:1', username: 'firmatario', roles: ['signer'] };
const staff = { id: 'u1', username: 'co', roles: ['co'] };
const system = { id: 'system', username: 'system', roles: ['system'] };

describe('e-signature ceremony machine', () => {
  it('walks started → terms_accepted → presented → signed for the signer', () => {
    let state = esignMachine.initial;
    for (const [action, to] of [['terms', 'terms_accepted'], ['present', 'presented'], ['sign', 'signed']] as const) {
      const c = checkTransition(esignMachine, { state, action, actor: signer, input: { otp: '123456' } });
      assert.ok(c.ok, `${action} from ${state}`);
      assert.equal(c.to, to);
      state = c.to;
    }
  });

  it('rejects steps out of order with the allowed actions, and sign without a code', () => {
    const c = checkTransition(esignMachine, { state: 'started', action: 'sign', actor: signer, input: { otp: '1' } });
    assert.equal(c.ok, false);
    assert.ok(!c.ok && c.code === 'INVALID_TRANSITION');
    assert.deepEqual(!c.ok && c.allowedActions, ['terms', 'expire', 'cancel']);
    const m = checkTransition(esignMachine, { state: 'presented', action: 'sign', actor: signer, input: {} });
    assert.ok(!m.ok && m.code === 'MISSING_FIELDS');
  });

  it('lets only the system expire, lock or cancel, and nothing leaves a final state', () => {
    assert.ok(!checkTransition(esignMachine, { state: 'presented', action: 'lock', actor: signer }).ok);
    assert.ok(!checkTransition(esignMachine, { state: 'presented', action: 'cancel', actor: signer }).ok);
    assert.ok(checkTransition(esignMachine, { state: 'terms_accepted', action: 'cancel', actor: system }).ok);
    assert.ok(!checkTransition(esignMachine, { state: 'started', action: 'terms', actor: staff }).ok);
    assert.ok(checkTransition(esignMachine, { state: 'presented', action: 'expire', actor: system }).ok);
    assert.ok(checkTransition(esignMachine, { state: 'presented', action: 'lock', actor: system }).ok);
    for (const s of ['signed', 'expired', 'locked', 'cancelled'] as const) assert.deepEqual(allowedActions(esignMachine, s, system), []);
  });
});

describe('e-signature bundle (real ES256 + X.509)', function () {
  this.timeout(20_000);
  let bundleMod: typeof import('../../src/domains/esign/esign.bundle');
  let keyMod: typeof import('../../src/domains/esign/platform-key');
  const evidence: EsignEvidence = {
    ceremony_id: '00000000-0000-4000-8000-000000000001', cod_azienda: 'T1',
    document: { nome: 'contratto.pdf', sha256: 'a'.repeat(64) },
    signer: { nome: 'Mario Rossi', email: 'mario@example.test' },
    consent: { testo: 'Accetto di firmare elettronicamente', versione: '1' },
    timestamps: { started_at: '2026-11-21T10:00:00.000Z', terms_accepted_at: '2026-11-21T10:01:00.000Z', presented_at: '2026-11-21T10:02:00.000Z', signed_at: '2026-11-21T10:03:00.000Z' },
    client: { ip: '203.0.113.7', user_agent: 'Mozilla/5.0' },
    otp_event: { id: 'e1', sent_at: '2026-11-21T10:02:00.000Z', verified_at: '2026-11-21T10:03:00.000Z' },
  };

  before(async () => {
    process.env.ESIGN_KEY_DIR = mkdtempSync(join(tmpdir(), 'esign-keys-'));
    keyMod = await import('../../src/domains/esign/platform-key');
    bundleMod = await import('../../src/domains/esign/esign.bundle');
  });

  it('signs and verifies, with the platform certificate embedded and trusted', async () => {
    const b = await bundleMod.signEvidence(evidence);
    const header = JSON.parse(Buffer.from(b.jws.split('.')[0]!, 'base64url').toString());
    assert.equal(header.alg, 'ES256');
    const key = await keyMod.platformKey();
    assert.equal(header.x5c[0], key.certificateB64);
    const r = await bundleMod.verifyBundle(b, key.certificatePem);
    assert.ok(r.valid, JSON.stringify(r));
    assert.equal(r.valid && r.certificate.trusted, true);
    assert.deepEqual(r.valid && r.evidence, evidence);
  });

  it('fails on a single changed byte anywhere in the JWS or the evidence', async () => {
    const b = await bundleMod.signEvidence(evidence);
    const [h, p, s] = b.jws.split('.') as [string, string, string];
    const flip = (str: string, i: number) => str.slice(0, i) + (str[i] === 'A' ? 'B' : 'A') + str.slice(i + 1);
    const payload = Buffer.from(p, 'base64url');
    payload[payload.indexOf('a'.charCodeAt(0), 40)] = 'b'.charCodeAt(0);
    for (const jws of [`${h}.${payload.toString('base64url')}.${s}`, `${h}.${p}.${flip(s, 10)}`, `${flip(h, 30)}.${p}.${s}`]) {
      assert.equal((await bundleMod.verifyBundle({ jws })).valid, false, jws.slice(0, 40));
    }
    const tampered = { ...b, evidence: { ...b.evidence, client: { ...b.evidence.client, ip: '203.0.113.8' } } };
    assert.equal((await bundleMod.verifyBundle(tampered)).valid, false);
  });

  it('rejects a genuine signature by another certificate when a trusted one is given', async () => {
    const b = await bundleMod.signEvidence(evidence);
    const other = 'MIIBfake'.padEnd(64, 'A');
    const r = await bundleMod.verifyBundle(b, other);
    assert.equal(r.valid, false);
    assert.equal((await bundleMod.verifyBundle(b)).valid, true);
  });
});
