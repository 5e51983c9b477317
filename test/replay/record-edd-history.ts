/**
 * Records the history of a real EDD workflow on the dev server into test/replay/histories/:
 * measures added and completed, a submission refused while a measure is open (validator: not in
 * history), four-eyes refused, a rejection back to open, the supervisor's approval and the close.
 * Run it again when a deliberate, patched change needs a new baseline; old histories stay.
 *   node --import tsx test/replay/record-edd-history.ts [file name, default edd-full-lifecycle.json]
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporalCliPath } from '../../temporal/binaries';
import { openEddCase } from '../../src/domains/edd';
import { eddTransitionUpdate, eddWorkflowId, type EddTransitionArgs } from '../../workflows/edd/edd.contract';
import { getTestEnv, stopTestEnv } from '../helpers/env';

async function main() {
  const env = await getTestEnv();
  try {
    const tenant = await env.createTenant('REPLAYEDD');
    const mk = async (roles: ('analyst' | 'co')[]) => {
      const u = await env.createUser({ tenant, roles });
      return { id: u.cod_utente, username: u.username, roles };
    };
    const analyst = await mk(['analyst']);
    const co = await mk(['co']);
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: 'ANA-000001', tipo_soggetto: 'persona_fisica', denominazione: 'Replay PEP', pep: true, created_by: 'test' });
    const { eddId } = await openEddCase(env.deps, { codAzienda: tenant, actor: analyst, codAnagrafe: 'ANA-000001', misure: ['origine_fondi', 'approvazione_alta_direzione'] });
    const workflowId = eddWorkflowId(tenant, eddId);
    const h = env.temporal.workflow.getHandle(workflowId);
    const send = (a: typeof analyst, args: Omit<EddTransitionArgs, 'actor'>) => h.executeUpdate(eddTransitionUpdate, { args: [{ ...args, actor: a }] });
    const steps = await env.ownerDb('edd_step').where({ edd_id: eddId }).orderBy('ordine');
    await send(analyst, { action: 'aggiungi-step', step: { id: randomUUID(), tipo: 'altro', titolo: 'Visura', descrizione: '', scadenza: '2027-01-31' } });
    await send(analyst, { action: 'completa-step', step_id: steps[0].id, esito: 'documentata', riferimento_evidenza: 'FASC-1' });
    await send(analyst, { action: 'approva' }).catch(() => undefined); // refused by the validator: not in history
    const all = await env.ownerDb('edd_step').where({ edd_id: eddId, stato: 'aperto' });
    for (const s of all) await send(co, { action: 'completa-step', step_id: s.id, esito: 'fatto' });
    await send(co, { action: 'approva' });
    await send(co, { action: 'approva-supervisore' }).catch(() => undefined); // four-eyes: refused by the validator
    await send(co, { action: 'respingi', reason: 'manca un documento' });
    await send(analyst, { action: 'approva' });
    await send(co, { action: 'approva-supervisore' });
    await send(analyst, { action: 'chiudi', reason: 'chiusa' });
    await h.result();
    // The CLI writes proto3 JSON, the format Worker.runReplayHistories reads back.
    const json = execFileSync(temporalCliPath(), ['workflow', 'show', '--workflow-id', workflowId, '--address', env.temporalAddress,
      '--namespace', env.deps.config.temporal.namespace, '--output', 'json'], { encoding: 'utf8' });
    const file = join(import.meta.dirname, 'histories', process.argv[2] ?? 'edd-full-lifecycle.json');
    writeFileSync(file, json);
    console.log(`wrote ${file} (${JSON.parse(json).events.length} events)`);
  } finally {
    await stopTestEnv();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
