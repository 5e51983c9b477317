/**
 * Records the histories of two real imports on the dev server into test/replay/histories:
 * import-<name>.json (the sample customers file with a bad row added: begin, one chunk, finish)
 * and import-<name>-refused.json (a file without a required column: refused as a whole).
 * Run it again when a deliberate, patched change needs a new baseline; old histories stay.
 *   node --import tsx test/replay/record-import-history.ts [name]   (default "completed")
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/config';
import { temporalCliPath } from '../../temporal/binaries';
import { getTestEnv, stopTestEnv } from '../helpers/env';

async function main() {
  const name = process.argv[2] ?? 'completed';
  const env = await getTestEnv();
  try {
    const tenant = await env.createTenant('REPLAYIMP');
    const analyst = await env.login(await env.createUser({ tenant, roles: ['analyst'] }));
    const upload = async (bytes: Buffer) => {
      const fd = new FormData();
      fd.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'text/csv' }), 'clienti.csv');
      const r = await analyst.request('POST', '/api/import/clienti', { body: fd, headers: { 'x-csrf-token': await analyst.csrfToken('/anagrafe/importa') } });
      if (r.status !== 202) throw new Error(`upload answered ${r.status}: ${r.text}`);
      const id = String(r.body.id);
      for (let i = 0; i < 300; i++) {
        const job = await analyst.get(`/api/import/${id}`);
        if (job.body.stato === 'completato' || job.body.stato === 'fallito') return String(job.body.workflow_id);
        await new Promise((res) => setTimeout(res, 200));
      }
      throw new Error('the import did not finish');
    };
    const sample = readFileSync(join(projectRoot, 'data', 'samples', 'import', 'clienti.csv'), 'utf8').trimEnd();
    const header = sample.split(/\r?\n/)[0]!;
    // One row with every cell empty but the separators: an error of its own in the report.
    const withBadRow = Buffer.from(`${sample}\r\n${header.replace(/[^;,]/g, '')}x\r\n`);
    const refused = Buffer.from('nome;cognome\r\nMario;Rossi\r\n');
    for (const [suffix, bytes] of [['', withBadRow], ['-refused', refused]] as const) {
      const workflowId = await upload(bytes);
      // The CLI writes proto3 JSON, the format Worker.runReplayHistories reads back.
      const json = execFileSync(temporalCliPath(), ['workflow', 'show', '--workflow-id', workflowId, '--address', env.temporalAddress,
        '--namespace', env.deps.config.temporal.namespace, '--output', 'json'], { encoding: 'utf8' });
      const file = join(import.meta.dirname, 'histories', `import-${name}${suffix}.json`);
      writeFileSync(file, json);
      console.log(`wrote ${file} (${JSON.parse(json).events.length} events)`);
    }
  } finally {
    await stopTestEnv();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
