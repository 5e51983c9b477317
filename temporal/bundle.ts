import { fork } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AREAS } from '../src/areas';
import { projectRoot } from '../src/config';
import type { AreaDefinition } from '../src/kit/area';

/**
 * The worker's workflow entry, generated from the registry: one `export *` per workflow
 * module of each area. Workflow code is bundled (webpack), never imported by the worker,
 * so the registry names the modules and this file is what the bundler starts from.
 * It is plain JavaScript so the bundler needs no TypeScript loader for it.
 */
export function workflowsEntry(areas: readonly AreaDefinition[] = AREAS): string {
  // In the project itself, not under node_modules: a checkout whose node_modules is a link to
  // another checkout's would share one entry (naming either's workflows), and the bundler, which
  // resolves the link, would not find the entry point it generates beside this file.
  const dir = join(projectRoot, '.cache');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'workflows-entry.js');
  const lines = areas.flatMap((a) => (a.workflowModules ?? []).map((m) => `export * from ${JSON.stringify(m)}; // ${a.name}`));
  const text = `// Generated from src/areas.ts by temporal/bundle.ts: do not edit.\n${lines.join('\n')}\n`;
  let current = '';
  try { current = readFileSync(file, 'utf8'); } catch { /* first run */ }
  // Rewritten only when it changes, and atomically: several processes (web, worker, tests) may start at once.
  if (current !== text) {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  }
  return file;
}

/**
 * Webpack over the workflows at `workflowsPath` (a file or the generated entry), in a child
 * process (bundle-process.cjs): in this one it left about 110 MB of resident memory behind for
 * the life of the worker. Not cached: see workflowBundle() for the worker's.
 */
export function bundleWorkflowsInChild(workflowsPath: string): Promise<{ code: string }> {
  return new Promise<{ code: string }>((resolve, reject) => {
    const child = fork(join(projectRoot, 'temporal', 'bundle-process.cjs'), [workflowsPath], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
    child.once('message', (m: { code?: string; error?: string }) => (m.code ? resolve({ code: m.code }) : reject(new Error(`workflow bundle failed: ${m.error}`))));
    child.once('error', reject);
    child.once('exit', (code) => { if (code) reject(new Error(`workflow bundler exited with ${code}`)); });
  });
}

let cached: Promise<{ code: string }> | undefined;

/**
 * Bundled once per process: webpack over the workflows takes seconds, and the code does not
 * change at run time (in a child process, see bundleWorkflowsInChild).
 */
export function workflowBundle(): Promise<{ code: string }> {
  cached ??= bundleWorkflowsInChild(workflowsEntry());
  cached.catch(() => { cached = undefined; });
  return cached;
}
