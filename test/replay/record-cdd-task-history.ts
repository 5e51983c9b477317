/**
 * Records the history of a real CDD task on the dev server into test/replay/histories/: an
 * enhanced task sent back once, completed by a second compliance officer, with the next periodic
 * review started as a child. Run it again when a deliberate, patched change needs a new baseline;
 * old histories stay, so the new code must still replay them.
 *   node --import tsx test/replay/record-cdd-task-history.ts [file name, default cdd-task-completed.json]
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { temporalCliPath } from '../../temporal/binaries';
import { initiateCdd, transitionCddTask } from '../../src/domains/cdd';
import { getTestEnv, stopTestEnv } from '../helpers/env';

async function main() {
  const env = await getTestEnv();
  try {
    const tenant = await env.createTenant('REPLAYCDD');
    const mk = async (roles: ('analyst' | 'co')[]) => {
      const u = await env.createUser({ tenant, roles });
      return { id: u.cod_utente, username: u.username, roles };
    };
    const analyst = await mk(['analyst']);
    const co = await mk(['co']);
    const co2 = await mk(['co']);
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: 'ANA-000001', tipo_soggetto: 'persona_fisica', denominazione: 'Cliente', pep: true, classe_rischio: 'medio_alto', created_by: 'replay' });
    const deps = { db: env.deps.db, client: env.temporal, taskQueue: env.deps.config.temporal.taskQueue };
    const { task } = await initiateCdd(deps, { codAzienda: tenant, actor: analyst, codAnagrafe: 'ANA-000001', motivo: 'manuale' });
    const step = (actor: typeof co, action: 'start' | 'add-note' | 'review' | 'send-back' | 'complete', nota?: string) =>
      transitionCddTask(deps, { codAzienda: tenant, taskId: task.id, actor, action, ...(nota ? { nota } : {}) });
    await step(analyst, 'start');
    await step(analyst, 'add-note', 'Richiesti gli estratti conto');
    await step(analyst, 'review');
    await step(co, 'send-back', 'Manca la fonte del patrimonio');
    await step(analyst, 'review');
    await step(analyst, 'complete').catch(() => undefined); // refused (an analyst, enhanced): not in history as a change
    await env.ownerDb('questionari').insert({
      id: randomUUID(), cod_azienda: tenant, cod_questionario: 'QST-000001', template_id: '5c0d4a5e-6b0f-4f3a-9a41-0c2d7e1b9a01', template_codice: 'kyc-standard',
      template_versione: 1, cod_anagrafe: 'ANA-000001', tipo_soggetto: 'persona_fisica', cdd_pratica_id: task.id, risposte: '{}', stato: 'completato',
      created_by: 'replay', completed_by: 'replay', completed_at: new Date(),
    });
    await step(co2, 'complete');
    await env.temporal.workflow.getHandle(task.workflow_id).result();
    // The CLI writes proto3 JSON, the format Worker.runReplayHistories reads back.
    const json = execFileSync(temporalCliPath(), ['workflow', 'show', '--workflow-id', task.workflow_id, '--address', env.temporalAddress,
      '--namespace', env.deps.config.temporal.namespace, '--output', 'json'], { encoding: 'utf8' });
    const file = join(import.meta.dirname, 'histories', process.argv[2] ?? 'cdd-task-completed.json');
    writeFileSync(file, json);
    console.log(`wrote ${file} (${JSON.parse(json).events.length} events)`);
  } finally {
    await stopTestEnv();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
