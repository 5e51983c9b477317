import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { projectRoot } from '../../src/config';
import { generatePlatformKeyPem } from '../../src/domains/esign/platform-key';

const block = (pem: string, label: string) => pem.match(new RegExp(`-----BEGIN ${label}-----[\\s\\S]+?-----END ${label}-----\\n?`))![0];

/** A fresh e-signature key and its certificate, as production would be given them. */
export async function signingPair(): Promise<{ key: string; certificate: string }> {
  const pem = await generatePlatformKeyPem();
  return { key: block(pem, 'PRIVATE KEY'), certificate: block(pem, 'CERTIFICATE') };
}

/** Every setting production requires, with values that pass its checks. */
export async function completeProductionEnv(): Promise<NodeJS.ProcessEnv> {
  const { key, certificate } = await signingPair();
  const secret = () => randomBytes(32).toString('hex');
  return {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://owner:owner-password-long@db.example:5432/compliance',
    APP_DB_PASSWORD: randomBytes(18).toString('base64url'),
    PLATFORM_DATABASE_URL: `postgres://cp_platform:${randomBytes(18).toString('base64url')}@db.example:5432/compliance`,
    TEMPORAL_ADDRESS: 'temporal.example:7233',
    SESSION_SECRET: secret(),
    SECRET_BOX_KEY: secret(),
    TENANT_CONTEXT_KEY: secret(),
    ESIGN_SIGNING_KEY: key,
    ESIGN_CERTIFICATE: certificate,
    PUBLIC_BASE_URL: 'https://aml.example',
    DOCUMENT_STORE_DIR: '/srv/compliance/documents',
    GOAML_DATA_DIR: resolve(projectRoot, '../shared/data/regulatory/goaml'),
    TRUST_PROXY: 'true',
    SMTP_URL: 'smtp://relay:secret@smtp.aml.example:587',
    MAIL_FROM: 'Compliance <no-reply@aml.example>',
  };
}
