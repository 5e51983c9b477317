/**
 * Records the history of a real portfolio recalculation on the dev server into test/replay/histories/:
 * three active customers, one of them a PEP whose class in force is basso, so one class changes
 * and its assessment is started (batch by batch before `patched('risk-run-assessments-at-end')`,
 * by the queueing step after it). Run it again when a deliberate, patched change needs a new
 * baseline; old histories stay.
 *   node --import tsx test/replay/record-risk-run-history.ts [file name, default risk-run-recalculation.json]
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporalCliPath } from '../../temporal/binaries';
import { getTestEnv, stopTestEnv } from '../helpers/env';

async function main() {
  const env = await getTestEnv();
  try {
    const tenant = await env.createTenant('REPLAYRUN');
    const co = await env.login(await env.createUser({ tenant, roles: ['co'] }));
    await env.ownerDb('anagrafe').insert(['ANA-000001', 'ANA-000002', 'ANA-000003'].map((cod, i) => ({
      cod_azienda: tenant, cod_anagrafe: cod, tipo_soggetto: 'persona_fisica', denominazione: `Replay ${cod}`, pep: i === 1,
      classe_rischio: 'basso', stato: 'attivo', paese_residenza: 'IT', nazionalita: 'IT', created_by: 'test',
    })));
    const started = await co.post('/api/risk/runs', { tipo: 'ricalcolo' });
    if (started.status !== 202) throw new Error(`POST /api/risk/runs answered ${started.status}: ${started.text}`);
    const run = await env.ownerDb('rischio_esecuzioni').where({ id: started.body.id }).first();
    await env.temporal.workflow.getHandle(run.workflow_id).result();
    const json = execFileSync(temporalCliPath(), ['workflow', 'show', '--workflow-id', run.workflow_id, '--address', env.temporalAddress,
      '--namespace', env.deps.config.temporal.namespace, '--output', 'json'], { encoding: 'utf8' });
    const file = join(import.meta.dirname, 'histories', process.argv[2] ?? 'risk-run-recalculation.json');
    writeFileSync(file, json);
    console.log(`wrote ${file} (${JSON.parse(json).events.length} events)`);
  } finally {
    await stopTestEnv();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
