import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../src/config';
import { ALLOWED_CYCLES, findCycles } from '../../scripts/check-cycles';

const run = promisify(execFile);

/** A throw-away project tree with the given files (paths relative to its root). */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cycles-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** Runs the check `npm run checks` runs, on another tree: its exit code and output. */
async function check(dir: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/check-cycles.ts', dir], { cwd: projectRoot });
    return { code: 0, out: stdout };
  } catch (e: any) {
    return { code: e.code, out: String(e.stdout) };
  }
}

describe('house rule: no import circles among the project\'s modules', function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const make = (files: Record<string, string>) => { const d = tree(files); dirs.push(d); return d; };

  it('fails on a circle made of type-only imports, naming its files', async () => {
    const dir = make({
      'workflows/p/p.contract.ts': "import type { createActs } from '../../activities/p/p.activities';\nexport type Acts = ReturnType<typeof createActs>;\n",
      'activities/p/p.activities.ts': "import type { Step } from '../../workflows/p/p.contract';\nexport type Step = { id: string };\nexport const createActs = () => ({ run: (s: Step) => s.id });\n",
    });
    const r = await check(dir);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /import cycles: 1/);
    assert.match(r.out, /workflows\/p\/p\.contract\.ts/);
    assert.match(r.out, /activities\/p\/p\.activities\.ts/);
  });

  it('fails on a longer circle through an index re-export, in any of the project\'s folders', async () => {
    const dir = make({
      'src/domains/a/index.ts': "export { f } from './a.commands';\n",
      'src/domains/a/a.commands.ts': "import { g } from '../../../scripts/tool';\nexport const f = () => g();\n",
      'scripts/tool.ts': "import { f } from '../src/domains/a';\nexport const g = () => 1;\nexport const h = f;\n",
    });
    const cycles = await findCycles(dir);
    assert.equal(cycles.length, 1);
    assert.deepEqual([...cycles[0]!].sort(), ['scripts/tool.ts', 'src/domains/a/a.commands.ts', 'src/domains/a/index.ts']);
    assert.equal((await check(dir)).code, 1);
  });

  it('passes a tree that imports in one direction', async () => {
    const dir = make({
      'workflows/p/p.contract.ts': "export interface Acts { run(id: string): Promise<void> }\n",
      'activities/p/p.activities.ts': "import type { Acts } from '../../workflows/p/p.contract';\nexport const createActs = (): Acts => ({ run: async () => {} });\n",
    });
    assert.deepEqual(await check(dir), { code: 0, out: 'import cycles: none\n' });
  });

  it('allows no circle at all', () => {
    assert.deepEqual(ALLOWED_CYCLES, []);
  });
});
