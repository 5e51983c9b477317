import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { parseSigningPair } from './lib/pem-setting';

type Env = NodeJS.ProcessEnv;

/**
 * A setting production cannot start without. Development generates or embeds all of them;
 * production generates nothing, so that web and worker on separate hosts share them only
 * through configuration.
 */
export interface ProductionSetting {
  /** The variables that provide it: any one of them is enough. */
  names: readonly string[];
  /** What it is for, printed when it is missing. */
  purpose: string;
  /** What is wrong with the value given (weak, malformed), if anything. */
  check?: (value: string, env: Env) => string | undefined;
}

const MIN_SECRET_BYTES = 32;
const MIN_PASSWORD_BYTES = 16;
const SECRETS = ['SESSION_SECRET', 'SECRET_BOX_KEY', 'TENANT_CONTEXT_KEY'] as const;

const weak = (v: string, min: number) =>
  Buffer.byteLength(v, 'utf8') < min ? `shorter than ${min} bytes`
  : new Set(v).size < 8 ? 'too few distinct characters (not a random value)' : undefined;

const secret = (name: (typeof SECRETS)[number]) => (v: string, env: Env) =>
  weak(v, MIN_SECRET_BYTES) ?? (SECRETS.some((other) => other !== name && env[other] === v) ? 'the same value as another secret' : undefined);

const url = (v: string, protocols: string[]): URL | string => {
  try {
    const u = new URL(v);
    return protocols.includes(u.protocol) ? u : `not a ${protocols.join(' or ')} URL`;
  } catch { return 'not a URL'; }
};

/** A role's password, or its URL (whose password is checked the same way). */
const rolePassword = (urlVar: string) => (v: string, env: Env) => {
  const given = env[urlVar];
  if (given) {
    const u = url(given, ['postgres:', 'postgresql:']);
    if (typeof u === 'string') return `${urlVar} is ${u}`;
    if (!u.username || !u.password) return `${urlVar} must name the role and its password`;
    return weak(decodeURIComponent(u.password), MIN_PASSWORD_BYTES);
  }
  return weak(v, MIN_PASSWORD_BYTES);
};

const signingPair = (v: string, env: Env) => {
  if (!env.ESIGN_SIGNING_KEY || !env.ESIGN_CERTIFICATE) return undefined; // the missing one is reported on its own line
  try { parseSigningPair(env.ESIGN_SIGNING_KEY, env.ESIGN_CERTIFICATE); return undefined; } catch (err) { return (err as Error).message; }
};

/**
 * The goAML folder (the FIU's schema and lookups, not redistributed with the project): absolute, a
 * readable directory, holding a readable XML schema at its top or one level down (one folder per
 * FIU package, docs/filing.md). Without it no filing could be validated or rendered, and the failure
 * would surface only at the first validation. (Which files each jurisdiction reads is the filing
 * area's configuration, which this module may not import: the area imports the configuration.)
 */
const goamlDir = (v: string) => {
  if (!isAbsolute(v)) return 'not an absolute path';
  try {
    if (!statSync(v).isDirectory()) return 'not a directory';
    accessSync(v, constants.R_OK | constants.X_OK);
  } catch (err) { return `not readable (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`; }
  const readable = (f: string) => { try { accessSync(f, constants.R_OK); return true; } catch { return false; } };
  const schemas = (dir: string) => { try { return readdirSync(dir).filter((f) => f.endsWith('.xsd')).map((f) => join(dir, f)); } catch { return []; } };
  const below = (() => { try { return readdirSync(v, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => join(v, d.name)); } catch { return []; } })();
  return [v, ...below].flatMap(schemas).some(readable) ? undefined : 'holds no readable goAML schema (.xsd), at its top or one folder down';
};

/** Every setting production requires, one line each. */
export const PRODUCTION_SETTINGS: readonly ProductionSetting[] = [
  { names: ['DATABASE_URL'], purpose: 'owner connection of PostgreSQL, for migrations; production embeds no database', check: (v) => { const u = url(v, ['postgres:', 'postgresql:']); return typeof u === 'string' ? u : undefined; } },
  { names: ['APP_DB_PASSWORD', 'APP_DATABASE_URL'], purpose: 'password or full URL of the application role, bound to one tenant per transaction', check: rolePassword('APP_DATABASE_URL') },
  { names: ['PLATFORM_DB_PASSWORD', 'PLATFORM_DATABASE_URL'], purpose: 'password or full URL of the platform role: sign-in, sessions, superadmin work', check: rolePassword('PLATFORM_DATABASE_URL') },
  { names: ['TEMPORAL_ADDRESS'], purpose: 'address of the Temporal cluster; production embeds no dev server' },
  { names: ['SESSION_SECRET'], purpose: 'signs CSRF tokens and applicant tokens', check: secret('SESSION_SECRET') },
  { names: ['SECRET_BOX_KEY'], purpose: 'encrypts TOTP seeds at rest', check: secret('SECRET_BOX_KEY') },
  { names: ['TENANT_CONTEXT_KEY'], purpose: 'signs the tenant of each database transaction for row-level security', check: secret('TENANT_CONTEXT_KEY') },
  { names: ['ESIGN_SIGNING_KEY'], purpose: 'private key of the e-signatures, ECDSA P-256, as PEM or a path', check: signingPair },
  { names: ['ESIGN_CERTIFICATE'], purpose: 'X.509 certificate of that key, as PEM or a path' },
  { names: ['PUBLIC_BASE_URL'], purpose: 'https base of the links sent to customers', check: (v) => { const u = url(v, ['https:']); return typeof u === 'string' ? u : undefined; } },
  { names: ['DOCUMENT_STORE_DIR'], purpose: 'absolute path of the document store shared by web and worker', check: (v) => (isAbsolute(v) ? undefined : 'not an absolute path') },
  { names: ['GOAML_DATA_DIR'], purpose: 'absolute path of the FIU\'s goAML schema and lookups (docs/filing.md); filings are validated and rendered against it', check: goamlDir },
  { names: ['SMTP_URL', 'SMTP_HOST'], purpose: 'the mail relay (smtp:// or smtps:// URL, or its host); production runs no local mail server', check: (v, env) => {
    if (!env.SMTP_URL) return undefined;
    const u = url(v, ['smtp:', 'smtps:']);
    return typeof u === 'string' ? u : undefined;
  } },
  { names: ['MAIL_FROM'], purpose: 'sender of every message (one-time codes, links, notifications); its domain names the Message-IDs', check: (v) => (/@[^@\s>]+\.[^@\s>]+/.test(v) ? undefined : 'not an address with a domain') },
  { names: ['TRUST_PROXY'], purpose: 'true: the web process serves plain HTTP behind a TLS proxy, and secure cookies need its X-Forwarded-Proto', check: (v) => (v === 'true' ? undefined : 'must be true') },
];

/** Settings production refuses whatever else is given. */
export const PRODUCTION_REFUSALS: readonly { name: string; refuse: (value: string) => string | undefined }[] = [
  { name: 'SEED_DEMO', refuse: (v) => (v === 'false' ? undefined : 'the demo seed (known user names, a password in a file) never runs in production: unset it') },
];

/** Every problem of a production environment, one line each (empty: it may start). */
export function productionProblems(env: Env): string[] {
  const problems: string[] = [];
  for (const s of PRODUCTION_SETTINGS) {
    const given = s.names.find((n) => env[n]);
    const label = s.names.join(' or ');
    if (!given) { problems.push(`${label}: missing; ${s.purpose}`); continue; }
    const wrong = s.check?.(env[s.names[0]!] ?? '', env);
    if (wrong) problems.push(`${label}: ${wrong}`);
  }
  for (const r of PRODUCTION_REFUSALS) {
    const v = env[r.name];
    const wrong = v === undefined || v === '' ? undefined : r.refuse(v);
    if (wrong) problems.push(`${r.name}: ${wrong}`);
  }
  return problems;
}
