// `npm run fuzz`: schemathesis against the OpenAPI document of a running stack.
// Default: boots the stack the tests use (embedded PostgreSQL, Temporal dev server, worker, web),
// makes a tenant with its users and an applicant's case, signs in and fuzzes every operation.
// FUZZ_BASE_URL (+ FUZZ_COOKIE, or FUZZ_USERNAME/FUZZ_PASSWORD/FUZZ_TOTP_SECRET) targets a stack
// that is already running instead. Prints the figures; exits non-zero on any failure.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../src/config';
import { summariseFuzzReport } from './fuzz-report';
import { openCase } from '../test/api/onboarding-fixtures';
import { getTestEnv, stopTestEnv } from '../test/helpers/env';
import { ruleBody } from '../test/helpers/monitoring-fixture';
import { TestClient } from '../test/helpers/http-client';
import { nextTotpCode } from '../test/helpers/totp';

/** The checks that state the house rules: no 5xx, answers as documented (status, content type, schema). */
const CHECKS = ['not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance', 'unsupported_method'];
const MAX_EXAMPLES = Number(process.env.FUZZ_MAX_EXAMPLES ?? 25);
const SEED = process.env.FUZZ_SEED;
const say = (m: string) => console.log(`[fuzz] ${m}`);
const schemathesisBin = join(projectRoot, '.venv', 'bin', 'schemathesis');

interface Target {
  baseUrl: string;
  /** Cookie header of the signed-in staff user (and the applicant's session, when there is one). */
  cookie: string;
  /** Sessions that operations ending a session get, so they do not end the fuzzer's own. */
  throwaway: () => Promise<string>;
  /** Values worth trying for path parameters besides random ones (records that exist). */
  ids: string[];
  stop: () => Promise<void>;
}

const cookieOf = (c: TestClient, names: string[]) => names.map((n) => (c.cookie(n) ? `${n}=${c.cookie(n)}` : '')).filter(Boolean).join('; ');

async function signIn(baseUrl: string, username: string, password: string, totpSecret: string): Promise<TestClient> {
  const c = new TestClient(baseUrl);
  const r = await c.post('/auth/login', { username, password, totp: nextTotpCode(totpSecret) });
  if (r.status !== 200) throw new Error(`sign-in of ${username} failed: ${r.status} ${r.text}`);
  return c;
}

async function externalTarget(baseUrl: string): Promise<Target> {
  let cookie = process.env.FUZZ_COOKIE ?? '';
  const { FUZZ_USERNAME: u, FUZZ_PASSWORD: p, FUZZ_TOTP_SECRET: t } = process.env;
  if (!cookie && u && p && t) cookie = cookieOf(await signIn(baseUrl, u, p, t), ['cp_sid']);
  if (!cookie) say('no FUZZ_COOKIE nor FUZZ_USERNAME/FUZZ_PASSWORD/FUZZ_TOTP_SECRET: only public operations get past 401');
  return { baseUrl, cookie, throwaway: async () => '', ids: [], stop: async () => undefined };
}

/** The test stack, a tenant, a user holding every role, an applicant's open case and some records. */
async function ownTarget(): Promise<Target> {
  // A small list keeps the sanctions imports the fuzzer triggers short.
  const dataDir = mkdtempSync(join(tmpdir(), 'cp-fuzz-sanctions-'));
  const shared = join(projectRoot, '..', 'shared', 'data', 'sanctions', 'un');
  if (existsSync(shared)) cpSync(shared, join(dataDir, 'un'), { recursive: true });
  process.env.SANCTIONS_DATA_DIR = dataDir;
  say('starting PostgreSQL, Temporal, the worker and the web server…');
  const env = await getTestEnv();
  const tenant = await env.createTenant();
  const roles = ['superadmin', 'admin', 'co', 'sos', 'analyst', 'auditor', 'viewer'] as const;
  const user = await env.createUser({ tenant, roles: [...roles] });
  const staff = await env.login(user);
  const applicant = await openCase(env, tenant);
  const ids = [applicant.caseId, user.cod_utente, tenant];
  const created = await staff.post('/api/cases', { titolo: 'Caso del fuzzer', tipo: 'operazione_sospetta', priorita: 'media' });
  if (created.status === 201) ids.push(created.body.id);
  // A monitoring rule with a draft: its routes (update, backtest, release) get past the 404.
  const rule = await staff.post('/api/monitoring/rules', ruleBody('regola_del_fuzzer'));
  if (rule.status === 201) ids.push(rule.body.id);
  const throwaway = async () => cookieOf(await env.login(await env.createUser({ tenant, roles: [...roles] })), ['cp_sid']);
  say(`stack up at ${env.baseUrl}; tenant ${tenant}`);
  return {
    baseUrl: env.baseUrl, cookie: [cookieOf(staff, ['cp_sid']), cookieOf(applicant.client, ['cp_onb'])].filter(Boolean).join('; '), throwaway, ids,
    stop: async () => { await stopTestEnv(); rmSync(dataDir, { recursive: true, force: true }); },
  };
}

const toml = (v: string) => JSON.stringify(v);

async function configFor(t: Target): Promise<string> {
  const lines = [
    `base-url = ${toml(t.baseUrl)}`,
    'request-timeout = 30',
    'workers = 2',
    'continue-on-failure = true',
    `generation.max-examples = ${MAX_EXAMPLES}`,
    // The session travels in the Cookie header; generated cookie parameters would replace it.
    'generation.with-security-parameters = false',
    ...(SEED ? [`seed = ${SEED}`] : []),
    'suppress-health-check = ["all"]',
    `headers = { Cookie = ${toml(t.cookie)}, Accept = "application/json" }`,
    '[checks]',
    'enabled = false',
    ...CHECKS.flatMap((c) => [`${c}.enabled = true`]),
    '[phases]',
    'examples.enabled = true', 'coverage.enabled = true', 'fuzzing.enabled = true', 'stateful.enabled = false',
  ];
  if (t.ids.length) {
    lines.push('[dictionaries.records]', `values = [${t.ids.map(toml).join(', ')}]`);
    lines.push('[parameters]', '"path.id" = { dictionary = "records", probability = 0.5 }', '"path.cod_utente" = { dictionary = "records", probability = 0.3 }', '"path.cod_azienda" = { dictionary = "records", probability = 0.3 }');
  }
  // Ending a session gets a session of its own: the fuzzer's must live to the end.
  for (const path of ['/auth/logout']) {
    const other = await t.throwaway();
    lines.push('[[operations]]', `include-path = ${toml(path)}`, `headers = { Cookie = ${toml(other)}, Accept = "application/json" }`);
  }
  return lines.join('\n') + '\n';
}

/** Runs in the work directory: schemathesis keeps its cache of failures in the current directory. */
function runSchemathesis(configFile: string, reportDir: string, baseUrl: string): Promise<number> {
  // One area's routes after a change: FUZZ_INCLUDE_PATH_REGEX='^/api/(monitoring|kyt|engine)'.
  const only = process.env.FUZZ_INCLUDE_PATH_REGEX ? ['--include-path-regex', process.env.FUZZ_INCLUDE_PATH_REGEX] : [];
  const args = ['--config-file', configFile, 'run', ...only, `${baseUrl}/api/openapi.json`, '--report', 'ndjson', '--report-ndjson-path', join(reportDir, 'events.ndjson')];
  say(`schemathesis ${args.join(' ')}`);
  return new Promise((resolve, reject) => {
    const p = spawn(schemathesisBin, args, { stdio: 'inherit', cwd: reportDir, env: { ...process.env, SCHEMATHESIS_HOOKS: '' } });
    p.on('error', reject);
    p.on('exit', (code) => resolve(code ?? 1));
  });
}

async function main() {
  if (!existsSync(schemathesisBin)) throw new Error('schemathesis is not installed in .venv: run `npm run setup`');
  const external = process.env.FUZZ_BASE_URL;
  const target = external ? await externalTarget(external.replace(/\/$/, '')) : await ownTarget();
  const work = mkdtempSync(join(tmpdir(), 'cp-fuzz-'));
  let code = 1;
  try {
    const configFile = join(work, 'schemathesis.toml');
    writeFileSync(configFile, await configFor(target));
    const started = Date.now();
    const exit = await runSchemathesis(configFile, work, target.baseUrl);
    const { findings, ...figures } = summariseFuzzReport(readFileSync(join(work, 'events.ndjson'), 'utf8'));
    for (const f of findings) console.log(`[fuzz] finding: ${f}`);
    console.log(JSON.stringify({ fuzz: { ...figures, seconds: Math.round((Date.now() - started) / 1000), schemathesis_exit: exit } }, null, 2));
    code = exit === 0 && figures.failures === 0 ? 0 : 1;
  } finally {
    if (process.env.FUZZ_KEEP_REPORT) say(`report kept in ${work}`);
    else rmSync(work, { recursive: true, force: true });
    await target.stop();
  }
  process.exit(code);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
