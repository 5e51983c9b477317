// Prints every registered route, one `METHOD /path` a line (read by ../shared/tools/route-coverage.mjs).
// Building the app opens no connection: knex and the Temporal client are lazy.
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { buildDeps, closeDeps } from '../src/deps';

const config = loadConfig();
const deps = buildDeps(config, { ownerUrl: 'postgres://routes@127.0.0.1:1/none', temporalAddress: '127.0.0.1:1' });
const { router } = createApp(deps);
const lines = new Set<string>();
for (const layer of router.stack) {
  for (const m of layer.methods) if (m !== 'HEAD') lines.add(`${m} ${layer.path}`);
}
process.stdout.write([...lines].sort().join('\n') + '\n');
await closeDeps(deps);
