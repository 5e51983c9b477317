// House rule: the project's own modules import in one direction, with no circle among them,
// type-only imports included (a contract that names its implementation's type is still tied
// to it). `npm run checks` runs this; it exits 1 naming every circle it finds.
//
//   node --import tsx scripts/check-cycles.ts [project-dir]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseCircular, parseDependencyTree } from 'dpdm';

/** Where the project's own code lives (tests import freely and are not part of the app). */
export const CYCLE_ROOTS = ['src', 'workflows', 'activities', 'temporal', 'scripts', 'bench'] as const;

/**
 * Circles tolerated for now, each as the list of files dpdm prints. Empty, and meant to stay so:
 * a circle is broken by moving the shared piece where both sides can import it.
 */
export const ALLOWED_CYCLES: readonly (readonly string[])[] = [];

const key = (cycle: readonly string[]) => [...cycle].sort().join(' | ');

/** Every circle among the modules under `roots` of `dir`, minus the allowed ones. */
export async function findCycles(dir: string, roots: readonly string[] = CYCLE_ROOTS): Promise<string[][]> {
  const tree = await parseDependencyTree(roots.map((r) => `${r}/**/*.{ts,mts,cts,js,mjs,cjs}`), {
    context: dir,
    cwd: dir,
    transform: false, // keep `import type`: erasing types would hide the type-only circles
    skipDynamicImports: false,
  });
  const allowed = new Set(ALLOWED_CYCLES.map(key));
  return parseCircular(tree).filter((c) => !allowed.has(key(c)));
}

async function main() {
  const dir = resolve(process.argv[2] ?? '.');
  const cycles = await findCycles(dir);
  if (!cycles.length) {
    process.stdout.write('import cycles: none\n');
    return;
  }
  process.stdout.write(`import cycles: ${cycles.length} (each file imports the next, the last imports the first)\n`);
  cycles.forEach((c, i) => process.stdout.write(`  ${i + 1}) ${c.join(' -> ')}\n`));
  process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
