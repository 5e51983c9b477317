import assert from 'node:assert/strict';
import { verify, webcrypto, X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { PRODUCTION_SETTINGS } from '../../src/config.production';
import { loadPlatformKey } from '../../src/domains/esign/platform-key';
import { completeProductionEnv, signingPair } from '../helpers/production-env';

const refused = (env: NodeJS.ProcessEnv): string[] => {
  try {
    loadConfig(env);
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.problems;
  }
  assert.fail('the configuration was accepted');
};

describe('configuration: production fails closed, development needs nothing', function () {
  this.timeout(20_000);
  let dataDir: string;
  beforeEach(() => { dataDir = join(mkdtempSync(join(tmpdir(), 'cp-config-')), 'data'); });
  afterEach(() => rmSync(join(dataDir, '..'), { recursive: true, force: true }));

  it('production with nothing names every required setting, one line each, and writes nothing', () => {
    const problems = refused({ NODE_ENV: 'production', DATA_DIR: dataDir });
    assert.equal(problems.length, PRODUCTION_SETTINGS.length);
    for (const s of PRODUCTION_SETTINGS) assert.ok(problems.some((p) => p.startsWith(`${s.names.join(' or ')}: missing`)), s.names.join());
    for (const name of ['SESSION_SECRET', 'SECRET_BOX_KEY', 'TENANT_CONTEXT_KEY', 'APP_DB_PASSWORD', 'PLATFORM_DB_PASSWORD', 'ESIGN_SIGNING_KEY', 'ESIGN_CERTIFICATE', 'DATABASE_URL', 'TEMPORAL_ADDRESS', 'PUBLIC_BASE_URL', 'SMTP_URL', 'MAIL_FROM']) {
      assert.ok(problems.some((p) => p.includes(name)), name);
    }
    assert.equal(existsSync(dataDir), false, 'nothing generated under the data directory');
  });

  it('production with every setting starts: secure cookies, no demo seed, nothing generated', async () => {
    const env: NodeJS.ProcessEnv = { ...(await completeProductionEnv()), DATA_DIR: dataDir, SECURE_COOKIES: 'false' };
    const config = loadConfig(env);
    assert.equal(config.env, 'production');
    assert.equal(config.secureCookies, true, 'SECURE_COOKIES cannot turn them off');
    assert.equal(config.seedDemo, false);
    assert.equal(config.onboardingDefaultAzienda, undefined);
    assert.equal(config.tenantContextKey, env.TENANT_CONTEXT_KEY);
    assert.equal(config.appDbRole, 'cp_app');
    assert.equal(config.appDbPassword, env.APP_DB_PASSWORD);
    // A full URL gives the role and its password.
    assert.equal(config.platformDbRole, 'cp_platform');
    assert.equal(config.platformDbPassword, new URL(env.PLATFORM_DATABASE_URL!).password);
    assert.equal(config.documentDir, '/srv/compliance/documents');
    assert.equal(existsSync(dataDir), false);
  });

  it('production refuses weak, repeated or malformed values and the demo seed, naming each', async () => {
    const good = await completeProductionEnv();
    const other = await signingPair();
    const problems = refused({
      ...good,
      SESSION_SECRET: 'too-short',
      SECRET_BOX_KEY: good.TENANT_CONTEXT_KEY,
      APP_DB_PASSWORD: 'a'.repeat(24),
      PLATFORM_DATABASE_URL: 'postgres://cp_platform@db.example/compliance',
      ESIGN_CERTIFICATE: other.certificate,
      PUBLIC_BASE_URL: 'http://aml.example',
      DOCUMENT_STORE_DIR: 'documents',
      GOAML_DATA_DIR: 'goaml',
      TRUST_PROXY: 'false',
      SMTP_URL: 'http://smtp.aml.example',
      MAIL_FROM: 'nessuno',
      SEED_DEMO: 'true',
    });
    const expect: [string, RegExp][] = [
      ['SESSION_SECRET', /shorter than 32 bytes/],
      ['SECRET_BOX_KEY', /same value as another secret/],
      ['TENANT_CONTEXT_KEY', /same value as another secret/],
      ['APP_DB_PASSWORD or APP_DATABASE_URL', /distinct characters/],
      ['PLATFORM_DB_PASSWORD or PLATFORM_DATABASE_URL', /must name the role and its password/],
      ['ESIGN_SIGNING_KEY', /does not certify/],
      ['PUBLIC_BASE_URL', /https/],
      ['DOCUMENT_STORE_DIR', /absolute/],
      ['GOAML_DATA_DIR', /absolute/],
      ['TRUST_PROXY', /must be true/],
      ['SMTP_URL or SMTP_HOST', /smtp/],
      ['MAIL_FROM', /address/],
      ['SEED_DEMO', /never runs in production/],
    ];
    for (const [name, why] of expect) {
      const line = problems.find((p) => p.startsWith(`${name}:`));
      assert.ok(line, `${name} not named in ${JSON.stringify(problems)}`);
      assert.match(line, why);
    }
    assert.equal(problems.length, expect.length, JSON.stringify(problems));
  });

  it('production refuses a goAML folder that is missing or lacks the schema (fail-closed)', async () => {
    const env = { ...(await completeProductionEnv()), DATA_DIR: dataDir };
    assert.match(refused({ ...env, GOAML_DATA_DIR: join(dataDir, '..', 'nowhere') }).join('\n'), /GOAML_DATA_DIR: not readable \(ENOENT\)/);
    const empty = mkdtempSync(join(tmpdir(), 'cp-goaml-'));
    try {
      assert.match(refused({ ...env, GOAML_DATA_DIR: empty }).join('\n'), /GOAML_DATA_DIR: holds no readable goAML schema/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('production takes the signing key and certificate as paths too', async () => {
    const { key, certificate } = await signingPair();
    const dir = mkdtempSync(join(tmpdir(), 'cp-esign-'));
    try {
      writeFileSync(join(dir, 'key.pem'), key);
      writeFileSync(join(dir, 'cert.pem'), certificate);
      const env = { ...(await completeProductionEnv()), DATA_DIR: dataDir, ESIGN_SIGNING_KEY: join(dir, 'key.pem'), ESIGN_CERTIFICATE: join(dir, 'cert.pem') };
      assert.equal(loadConfig(env).env, 'production');
      const missing = refused({ ...env, ESIGN_SIGNING_KEY: join(dir, 'none.pem') });
      assert.match(missing.join('\n'), /ESIGN_SIGNING_KEY: .*no such file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('development generates its secrets once under the data directory and keeps them', () => {
    const first = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir });
    const saved = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'));
    assert.equal(saved.tenantContextKey, first.tenantContextKey);
    assert.equal(saved.platformDbPassword, first.platformDbPassword);
    assert.notEqual(first.appDbPassword, first.platformDbPassword);
    const again = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir });
    assert.deepEqual([again.sessionSecret, again.secretBoxKey, again.tenantContextKey], [first.sessionSecret, first.secretBoxKey, first.tenantContextKey]);
    assert.equal(again.seedDemo, true);
    assert.equal(again.secureCookies, false);
  });

  it('the e-signature key is the one configured (PEM with escaped newlines); production never generates one', async () => {
    const { key, certificate } = await signingPair();
    const loaded = await loadPlatformKey({ NODE_ENV: 'production', ESIGN_SIGNING_KEY: key.replace(/\n/g, '\\n'), ESIGN_CERTIFICATE: certificate });
    const cert = new X509Certificate(certificate);
    assert.equal(loaded.certificateB64, cert.raw.toString('base64'));
    const data = Buffer.from('evidence');
    const sig = Buffer.from(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, loaded.privateKey, data));
    assert.equal(verify('sha256', data, { key: cert.publicKey, dsaEncoding: 'ieee-p1363' }, sig), true);
    await assert.rejects(loadPlatformKey({ NODE_ENV: 'production' }), /required in production/);
  });
});
