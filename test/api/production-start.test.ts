import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/config';
import { PRODUCTION_SETTINGS } from '../../src/config.production';

/** The entry points of package.json: npm start, npm run web, npm run worker, npm run migrate. */
const ENTRY_POINTS = ['src/main.ts', 'src/server.ts', 'temporal/worker-main.ts', 'scripts/migrate.ts'];
/** A process that has not exited by then is taken as started (it would wait for its services). */
const GIVE_UP_MS = 45_000;

function run(entry: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, entry)], { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${entry} still running after ${GIVE_UP_MS} ms:\n${stdout}\n${stderr}`)); }, GIVE_UP_MS);
    child.on('exit', (code) => { clearTimeout(timer); resolve({ code, stderr, stdout }); });
  });
}

describe('production start without its settings', function () {
  this.timeout(GIVE_UP_MS * 2);
  let dir: string;
  before(() => { dir = mkdtempSync(join(tmpdir(), 'cp-prod-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const entry of ENTRY_POINTS) {
    it(`${entry} refuses to start, naming every missing setting in one message, and writes nothing`, async () => {
      const dataDir = join(dir, entry.replace(/\W/g, '_'));
      // A bare environment: what the shell needs to run node, and production mode.
      const { code, stderr, stdout } = await run(entry, { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', DATA_DIR: dataDir });
      assert.equal(code, 1, `${stdout}\n${stderr}`);
      const messages = stderr.match(/Production configuration refused/g) ?? [];
      assert.equal(messages.length, 1, stderr);
      for (const s of PRODUCTION_SETTINGS) assert.match(stderr, new RegExp(`- ${s.names.join(' or ')}: missing`), s.names.join());
      assert.equal(existsSync(dataDir), false, 'nothing generated under DATA_DIR');
      assert.equal(stdout, '', 'nothing started');
    });
  }
});
