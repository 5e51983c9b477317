/**
 * Records the history of a real list import with its re-screen on the dev server into
 * test/replay/histories/screening-import-<name>.json (name from argv, default "per-tenant").
 * Run it again when a deliberate, patched change needs a new baseline; old histories stay.
 *   node --import tsx test/replay/record-screening-import-history.ts [name]
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { temporalCliPath } from '../../temporal/binaries';
import { SCREENING_IMPORT_WORKFLOW_TYPE, screeningImportWorkflowId } from '../../workflows/screening/screening.contract';
import { getTestEnv, stopTestEnv } from '../helpers/env';

const LISTED = 'Bartolomeo Quirinale Vescovado';

async function main() {
  const name = process.argv[2] ?? 'per-tenant';
  const dataDir = mkdtempSync(join(tmpdir(), 'cp-sanctions-replay-'));
  mkdirSync(join(dataDir, 'eu'));
  writeFileSync(join(dataDir, 'eu', 'eu.xml'), `<?xml version="1.0" encoding="UTF-8"?>
<export xmlns="http://eu.europa.ec/fpi/fsd/export">
  <sanctionEntity logicalId="7700" euReferenceNumber="EU.7700.99"><subjectType code="person"/><nameAlias wholeName="${LISTED}" strong="true"/><regulation programme="TEST"/></sanctionEntity>
</export>`);
  process.env.SANCTIONS_DATA_DIR = dataDir;
  const env = await getTestEnv();
  try {
    for (const code of ['REPLAYS1', 'REPLAYS2']) {
      const tenant = await env.createTenant(code);
      const co = await env.login(await env.createUser({ tenant, roles: ['co'] }));
      for (const nome of [LISTED, 'Anselmo Pradella', 'Clotilde Venturoli']) await co.post('/api/v1/screening/run', { nome, tipo: 'person' });
    }
    const runId = randomUUID();
    const workflowId = screeningImportWorkflowId(runId);
    await env.temporal.workflow.execute(SCREENING_IMPORT_WORKFLOW_TYPE, {
      workflowId, taskQueue: env.deps.config.temporal.taskQueue, args: [{ runId, trigger: 'manual', rescreenPageSize: 2 }],
    });
    // The CLI writes proto3 JSON, the format Worker.runReplayHistories reads back.
    const json = execFileSync(temporalCliPath(), ['workflow', 'show', '--workflow-id', workflowId, '--address', env.temporalAddress,
      '--namespace', env.deps.config.temporal.namespace, '--output', 'json'], { encoding: 'utf8' });
    const file = join(import.meta.dirname, 'histories', `screening-import-${name}.json`);
    writeFileSync(file, json);
    console.log(`wrote ${file} (${JSON.parse(json).events.length} events)`);
  } finally {
    await stopTestEnv();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
