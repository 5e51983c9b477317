/**
 * Records the history of a real dossier workflow on the dev server into test/replay/histories/:
 * generated, a signing ceremony that ends unsigned, a second one signed (its signals sent as the
 * ceremony sends them), complete-signing and archive. Run it again when a deliberate, patched
 * change needs a new baseline; old histories stay.
 *   node --import tsx test/replay/record-dossier-history.ts [file name, default dossier-signed-archived.json]
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporalCliPath } from '../../temporal/binaries';
import { esignCompletedSignal, esignEndedSignal, esignWorkflowId } from '../../workflows/esign/esign.contract';
import { createDossierUpdate, DOSSIER_WORKFLOW_TYPE, dossierTransitionUpdate, dossierWorkflowId, type DossierTransitionArgs } from '../../workflows/dossier/dossier.contract';
import type { MachineActor } from '../../workflows/lib/machine';
import { getTestEnv, stopTestEnv } from '../helpers/env';

async function main() {
  const env = await getTestEnv();
  try {
    const tenant = await env.createTenant('REPLAYD');
    const u = await env.createUser({ tenant, roles: ['co'] });
    const co: MachineActor = { id: u.cod_utente, username: u.username, roles: ['co'] };
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: 'ANA-RPL001', tipo_soggetto: 'societa', denominazione: 'Replay S.r.l.', created_by: 'seed' });
    const dossierId = '7d1c2a4e-0000-4000-8000-0000000d0551';
    const workflowId = dossierWorkflowId(tenant, dossierId);
    const h = await env.temporal.workflow.start(DOSSIER_WORKFLOW_TYPE, { workflowId, taskQueue: env.deps.config.temporal.taskQueue, args: [{ codAzienda: tenant, dossierId }] });
    await h.executeUpdate(createDossierUpdate, { args: [{ actor: co, data: { cod_anagrafe: 'ANA-RPL001', sezioni: ['identita', 'rapporti', 'movimenti'] } }] });
    const send = (args: Omit<DossierTransitionArgs, 'actor'>) => h.executeUpdate(dossierTransitionUpdate, { args: [{ ...args, actor: co }] });
    const first = await send({ action: 'sign' });
    await h.signal(esignEndedSignal, { codAzienda: tenant, ceremonyId: first.state.ceremony!.id, status: 'expired' });
    const second = await send({ action: 'sign' });
    await h.signal(esignCompletedSignal, { codAzienda: tenant, ceremonyId: second.state.ceremony!.id, documentSha256: '0'.repeat(64), signedAt: new Date().toISOString() });
    await send({ action: 'complete-signing' });
    await send({ action: 'archive' });
    await h.result();
    for (const s of [first, second]) await env.temporal.workflow.getHandle(esignWorkflowId(tenant, s.state.ceremony!.id)).terminate('recorded').catch(() => undefined);
    // The CLI writes proto3 JSON, the format Worker.runReplayHistories reads back.
    const json = execFileSync(temporalCliPath(), ['workflow', 'show', '--workflow-id', workflowId, '--address', env.temporalAddress,
      '--namespace', env.deps.config.temporal.namespace, '--output', 'json'], { encoding: 'utf8' });
    const file = join(import.meta.dirname, 'histories', process.argv[2] ?? 'dossier-signed-archived.json');
    writeFileSync(file, json);
    console.log(`wrote ${file} (${JSON.parse(json).events.length} events)`);
  } finally {
    await stopTestEnv();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
