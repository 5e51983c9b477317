import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Secrets generated once per installation and kept out of the repository (.data is git-ignored). */
interface LocalSecrets {
  sessionSecret: string;
  appDbPassword: string;
  secretBoxKey: string;
}

function localSecrets(dataDir: string): LocalSecrets {
  const file = join(dataDir, 'secrets.json');
  const known = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets>) : {};
  if (known.sessionSecret && known.appDbPassword && known.secretBoxKey) return known as LocalSecrets;
  mkdirSync(dataDir, { recursive: true });
  // Fill in what an older installation lacks, never replace what exists.
  const secrets: LocalSecrets = {
    sessionSecret: known.sessionSecret ?? randomBytes(32).toString('hex'),
    appDbPassword: known.appDbPassword ?? randomBytes(18).toString('base64url'),
    secretBoxKey: known.secretBoxKey ?? randomBytes(32).toString('hex'),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

export interface TemporalConfig {
  address: string | undefined; // undefined: start the embedded dev server
  namespace: string;
  taskQueue: string;
  tlsCertPath?: string;
  tlsKeyPath?: string;
  apiKey?: string;
  webUiUrl: string;
}

/**
 * Outgoing mail. `smtpUrl` (or `smtpHost`) names the relay; with neither, `npm start` runs the
 * local development SMTP server with its web inbox on the two dev ports and mail goes there.
 */
export interface MailConfig {
  smtpUrl: string | undefined;
  smtpHost: string | undefined;
  smtpPort: number | undefined;
  smtpUser: string | undefined;
  smtpPassword: string | undefined;
  /** Implicit TLS (port 465); otherwise STARTTLS when the server offers it. */
  smtpSecure: boolean;
  /** Sender of every message, `Name <address>`; its domain is also the Message-ID's. */
  from: string;
  /** Local development server (only when no relay is configured). */
  devSmtpPort: number;
  devWebPort: number;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  /** Owner connection (migrations, bootstrap). Undefined: embedded PostgreSQL. */
  databaseUrl: string | undefined;
  /** Connection of the non-owner application role; derived from databaseUrl when unset. */
  appDatabaseUrl: string | undefined;
  appDbRole: string;
  appDbPassword: string;
  embeddedPgPort: number;
  sessionSecret: string;
  /** Encrypts secrets at rest in the database (TOTP seeds). Losing it means users enrol TOTP again. */
  secretBoxKey: string;
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
  secureCookies: boolean;
  temporal: TemporalConfig;
  logLevel: string;
  seedDemo: boolean;
  /** Content-addressed store of uploaded documents (onboarding). */
  documentDir: string;
  /** Base URL put in links sent to customers (resume links, signing links). */
  publicBaseUrl: string;
  /** Tenant whose public onboarding /onboarding/ serves when the link names none. */
  onboardingDefaultAzienda: string | undefined;
  /** Largest accepted upload, in bytes. */
  uploadMaxBytes: number;
  mail: MailConfig;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = resolve(projectRoot, env.DATA_DIR ?? '.data');
  const secrets = localSecrets(dataDir);
  const mode = (env.NODE_ENV as Config['env']) ?? 'development';
  return {
    env: mode,
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    appDatabaseUrl: env.APP_DATABASE_URL || undefined,
    appDbRole: env.APP_DB_ROLE ?? 'cp_app',
    appDbPassword: env.APP_DB_PASSWORD ?? secrets.appDbPassword,
    embeddedPgPort: Number(env.EMBEDDED_PG_PORT ?? 5433),
    sessionSecret: env.SESSION_SECRET ?? secrets.sessionSecret,
    secretBoxKey: env.SECRET_BOX_KEY ?? secrets.secretBoxKey,
    sessionIdleMinutes: Number(env.SESSION_IDLE_MINUTES ?? 30),
    sessionAbsoluteHours: Number(env.SESSION_ABSOLUTE_HOURS ?? 12),
    secureCookies: env.SECURE_COOKIES === 'true',
    temporal: {
      address: env.TEMPORAL_ADDRESS || undefined,
      namespace: env.TEMPORAL_NAMESPACE ?? 'default',
      taskQueue: env.TEMPORAL_TASK_QUEUE ?? 'compliance',
      tlsCertPath: env.TEMPORAL_TLS_CERT || undefined,
      tlsKeyPath: env.TEMPORAL_TLS_KEY || undefined,
      apiKey: env.TEMPORAL_API_KEY || undefined,
      webUiUrl: env.TEMPORAL_WEB_UI_URL ?? 'http://localhost:8233',
    },
    logLevel: env.LOG_LEVEL ?? (mode === 'test' ? 'warn' : 'info'),
    seedDemo: env.SEED_DEMO !== 'false',
    documentDir: resolve(dataDir, env.DOCUMENT_STORE_DIR ?? 'documents'),
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT ?? 3000}`).replace(/\/$/, ''),
    onboardingDefaultAzienda: env.ONBOARDING_AZIENDA || (env.SEED_DEMO !== 'false' ? 'DEMO' : undefined),
    uploadMaxBytes: Number(env.UPLOAD_MAX_BYTES ?? 10 * 1024 * 1024),
    mail: {
      smtpUrl: env.SMTP_URL || undefined,
      smtpHost: env.SMTP_HOST || undefined,
      smtpPort: env.SMTP_PORT ? Number(env.SMTP_PORT) : undefined,
      smtpUser: env.SMTP_USER || undefined,
      smtpPassword: env.SMTP_PASSWORD || undefined,
      smtpSecure: env.SMTP_SECURE === 'true',
      from: env.MAIL_FROM ?? 'Piattaforma compliance <no-reply@compliance.localhost>',
      devSmtpPort: Number(env.MAIL_DEV_SMTP_PORT ?? 1025),
      devWebPort: Number(env.MAIL_DEV_WEB_PORT ?? 1080),
    },
  };
}
