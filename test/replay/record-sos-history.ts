/**
 * Records the history of a real SOS workflow on the dev server into test/replay/histories/.
 * Run it again when a deliberate, patched change needs a new baseline; old histories stay.
 *   node --import tsx test/replay/record-sos-history.ts [file name, default sos-transmitted-closed.json]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { temporalCliPath } from '../../temporal/binaries';
import { startSos } from '../../src/domains/sos/sos.commands';
import type { SessionUser } from '../../src/http/context';
import { sosTransitionUpdate } from '../../workflows/sos/sos.contract';
import { getTestEnv, stopTestEnv } from '../helpers/env';

async function main() {
  const env = await getTestEnv();
  try {
    const tenant = await env.createTenant('REPLAYSOS');
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: 'R-1', tipo_soggetto: 'persona_fisica', denominazione: 'Replay', created_by: 'test' });
    const mk = async (roles: ('analyst' | 'sos')[]) => {
      const u = await env.createUser({ tenant, roles });
      return { cod_utente: u.cod_utente, cod_azienda: tenant, username: u.username, email: '', nome: '', cognome: '', ruoli: roles, totp_enabled: true } as SessionUser;
    };
    const analyst = await mk(['analyst']);
    const delegate = await mk(['sos']);
    const temporal = { client: env.temporal, taskQueue: env.deps.config.temporal.taskQueue };
    const { workflowId } = await startSos(temporal, {
      codAzienda: tenant, user: analyst, evaluationDays: 30,
      data: { tipo: 'originale', origine: 'manuale', cod_anagrafe: 'R-1', oggetto: 'Replay', descrizione: 'storia registrata', content: { operazioni: [], soggetti: [], rapporti: [], legami: [], fenomeni: [], indicatori: [] } },
    });
    const h = env.temporal.workflow.getHandle(workflowId);
    const send = (u: SessionUser, args: Record<string, unknown>) =>
      h.executeUpdate(sosTransitionUpdate, { args: [{ ...args, actor: { id: u.cod_utente, username: u.username, roles: u.ruoli } } as never] });
    await send(analyst, { action: 'submit' });
    await send(analyst, { action: 'evaluate' }).catch(() => undefined); // rejected by the validator: not in history
    await send(delegate, { action: 'evaluate' });
    await send(delegate, { action: 'to_transmit' });
    await send(delegate, { action: 'complete-transmission', protocollo: 'UIF-1' });
    await send(delegate, { action: 'close' });
    await h.result();
    const json = execFileSync(temporalCliPath(), ['workflow', 'show', '--workflow-id', workflowId, '--address', env.temporalAddress,
      '--namespace', env.deps.config.temporal.namespace, '--output', 'json'], { encoding: 'utf8' });
    const file = join(import.meta.dirname, 'histories', process.argv[2] ?? 'sos-transmitted-closed.json');
    writeFileSync(file, json);
    console.log(`wrote ${file} (${JSON.parse(json).events.length} events)`);
  } finally {
    await stopTestEnv();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
