import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { productionProblems } from './config.production';
import { parseMaxCachedWorkflows } from '../temporal/workflow-cache';
import { DEFAULT_ENGINE_TASK_QUEUE } from '../workflows/lib/engine-queue';

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Secrets generated once per installation in development (.data is git-ignored); production generates nothing. */
interface LocalSecrets {
  sessionSecret: string;
  appDbPassword: string;
  platformDbPassword: string;
  secretBoxKey: string;
  tenantContextKey: string;
}

function localSecrets(dataDir: string): LocalSecrets {
  const file = join(dataDir, 'secrets.json');
  const known = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets>) : {};
  if (known.sessionSecret && known.appDbPassword && known.platformDbPassword && known.secretBoxKey && known.tenantContextKey) return known as LocalSecrets;
  mkdirSync(dataDir, { recursive: true });
  // Fill in what an older installation lacks, never replace what exists.
  const secrets: LocalSecrets = {
    sessionSecret: known.sessionSecret ?? randomBytes(32).toString('hex'),
    appDbPassword: known.appDbPassword ?? randomBytes(18).toString('base64url'),
    platformDbPassword: known.platformDbPassword ?? randomBytes(18).toString('base64url'),
    secretBoxKey: known.secretBoxKey ?? randomBytes(32).toString('hex'),
    tenantContextKey: known.tenantContextKey ?? randomBytes(32).toString('hex'),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

/** Settings missing or refused (most of them by production only): one message naming each of them. */
export class ConfigError extends Error {
  constructor(readonly problems: string[], production = true) {
    const heading = production
      ? 'Production configuration refused (NODE_ENV=production); nothing is generated or embedded in production'
      : 'Configuration refused';
    super(`${heading}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** A role's connection: a full URL (its user and password win) or a role name and password. */
function roleSettings(url: string | undefined, role: string, password: () => string) {
  if (!url) return { url: undefined, role, password: password() };
  const u = new URL(url);
  return { url, role: decodeURIComponent(u.username), password: decodeURIComponent(u.password) };
}

export interface TemporalConfig {
  address: string | undefined; // undefined: start the embedded dev server
  namespace: string;
  taskQueue: string;
  /** The monitoring engine's queue (ENGINE_TASK_QUEUE): daily batch chunks, replays, backtests (workflows/lib/engine-queue.ts). */
  engineTaskQueue: string;
  tlsCertPath?: string;
  tlsKeyPath?: string;
  apiKey?: string;
  webUiUrl: string;
  /** Workflows the worker keeps in memory between tasks; the others replay their history on their next task. */
  maxCachedWorkflows: number;
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
  /** Connection of the non-owner application role (tenant requests); derived from databaseUrl when unset. */
  appDatabaseUrl: string | undefined;
  appDbRole: string;
  appDbPassword: string;
  /** Connection of the non-owner platform role (sign-in, sessions, superadmin work); derived when unset. */
  platformDatabaseUrl: string | undefined;
  platformDbRole: string;
  platformDbPassword: string;
  /** A read replica the engine process (`npm run engine`) reads the platform from for its sync (application role, DATABASE_REPLICA_URL); unset: the primary. */
  databaseReplicaUrl: string | undefined;
  /** Signs the tenant of every application transaction; the database keeps a copy only the owner reads. */
  tenantContextKey: string;
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
  /** Customers of the labelled year `npm start` seeds into the demo tenant on a new installation (0: none; SEED_DEMO_YEAR). */
  seedDemoYear: number;
  /** Content-addressed store of uploaded documents (onboarding). */
  documentDir: string;
  /** goAML schemas and code lists (src/domains/filing/goaml/jurisdiction.ts names the files in it). */
  goamlDataDir: string;
  /** Base URL put in links sent to customers (resume links, signing links). */
  publicBaseUrl: string;
  /** Tenant whose public onboarding /onboarding/ serves when the link names none. */
  onboardingDefaultAzienda: string | undefined;
  /** Largest accepted upload, in bytes. */
  uploadMaxBytes: number;
  /** Largest file a bulk import accepts (CSV or XLSX of customers, relationships, movements). */
  importMaxBytes: number;
  mail: MailConfig;
}

/**
 * The configuration from the environment. Development fills every gap (generated secrets in
 * .data, embedded services); production (NODE_ENV=production) fills none and throws a
 * ConfigError naming every missing or refused setting (see config.production.ts).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const mode = (env.NODE_ENV as Config['env']) || 'development';
  const production = mode === 'production';
  if (production) {
    const problems = productionProblems(env);
    if (problems.length) throw new ConfigError(problems);
  }
  const dataDir = resolve(projectRoot, env.DATA_DIR ?? '.data');
  let generated: LocalSecrets | undefined;
  const secret = (name: string, pick: (s: LocalSecrets) => string) => () => {
    const given = env[name];
    if (given) return given;
    if (production) throw new ConfigError([`${name}: missing`]);
    generated ??= localSecrets(dataDir);
    return pick(generated);
  };
  const app = roleSettings(env.APP_DATABASE_URL || undefined, env.APP_DB_ROLE || 'cp_app', secret('APP_DB_PASSWORD', (s) => s.appDbPassword));
  const platform = roleSettings(env.PLATFORM_DATABASE_URL || undefined, env.PLATFORM_DB_ROLE || 'cp_platform', secret('PLATFORM_DB_PASSWORD', (s) => s.platformDbPassword));
  const seedDemo = !production && env.SEED_DEMO !== 'false';
  const seedDemoYear = seedDemo ? Number(env.SEED_DEMO_YEAR ?? 300) : 0;
  if (!(Number.isInteger(seedDemoYear) && (seedDemoYear === 0 || (seedDemoYear >= 10 && seedDemoYear <= 20_000)))) {
    throw new ConfigError([`SEED_DEMO_YEAR: 0 (no demo year) or a number of customers between 10 and 20000, not ${env.SEED_DEMO_YEAR}`], production);
  }
  const maxCachedWorkflows = parseMaxCachedWorkflows(env.WORKER_MAX_CACHED_WORKFLOWS);
  if (typeof maxCachedWorkflows === 'string') throw new ConfigError([maxCachedWorkflows], production);
  return {
    env: mode,
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    appDatabaseUrl: app.url,
    appDbRole: app.role,
    appDbPassword: app.password,
    platformDatabaseUrl: platform.url,
    platformDbRole: platform.role,
    platformDbPassword: platform.password,
    databaseReplicaUrl: env.DATABASE_REPLICA_URL || undefined,
    tenantContextKey: secret('TENANT_CONTEXT_KEY', (s) => s.tenantContextKey)(),
    embeddedPgPort: Number(env.EMBEDDED_PG_PORT ?? 5433),
    sessionSecret: secret('SESSION_SECRET', (s) => s.sessionSecret)(),
    secretBoxKey: secret('SECRET_BOX_KEY', (s) => s.secretBoxKey)(),
    sessionIdleMinutes: Number(env.SESSION_IDLE_MINUTES ?? 30),
    sessionAbsoluteHours: Number(env.SESSION_ABSOLUTE_HOURS ?? 12),
    // Production always sends secure cookies and HSTS: SECURE_COOKIES cannot turn them off there.
    secureCookies: production || env.SECURE_COOKIES === 'true',
    temporal: {
      address: env.TEMPORAL_ADDRESS || undefined,
      namespace: env.TEMPORAL_NAMESPACE ?? 'default',
      taskQueue: env.TEMPORAL_TASK_QUEUE ?? 'compliance',
      engineTaskQueue: env.ENGINE_TASK_QUEUE || DEFAULT_ENGINE_TASK_QUEUE,
      tlsCertPath: env.TEMPORAL_TLS_CERT || undefined,
      tlsKeyPath: env.TEMPORAL_TLS_KEY || undefined,
      apiKey: env.TEMPORAL_API_KEY || undefined,
      webUiUrl: env.TEMPORAL_WEB_UI_URL ?? 'http://localhost:8233',
      maxCachedWorkflows,
    },
    logLevel: env.LOG_LEVEL ?? (mode === 'test' ? 'warn' : 'info'),
    seedDemo,
    seedDemoYear,
    documentDir: resolve(dataDir, env.DOCUMENT_STORE_DIR ?? 'documents'),
    goamlDataDir: resolve(projectRoot, env.GOAML_DATA_DIR ?? '../shared/data/regulatory/goaml'),
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT ?? 3000}`).replace(/\/$/, ''),
    onboardingDefaultAzienda: env.ONBOARDING_AZIENDA || (seedDemo ? 'DEMO' : undefined),
    uploadMaxBytes: Number(env.UPLOAD_MAX_BYTES ?? 10 * 1024 * 1024),
    importMaxBytes: Number(env.IMPORT_MAX_BYTES ?? 50 * 1024 * 1024),
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

/** What the owner needs to prepare the database for this configuration (roles, passwords, tenant key). */
export function databaseSetup(config: Config) {
  return {
    roles: { app: config.appDbRole, platform: config.platformDbRole },
    passwords: { app: config.appDbPassword, platform: config.platformDbPassword },
    tenantContextKey: config.tenantContextKey,
  };
}

/** loadConfig for the entry points: a refused production configuration prints its one message and exits 1. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
