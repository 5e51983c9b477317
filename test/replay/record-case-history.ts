/**
 * Records the history of a real case workflow on the dev server into
 * test/replay/histories/. Run it again when a deliberate, patched change needs a new
 * baseline; old histories stay, so the new code must still replay them.
 *   node --import tsx test/replay/record-case-history.ts [file name, default case-full-lifecycle.json]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { temporalCliPath } from '../../temporal/binaries';
import { createCase } from '../../src/domains/cases/cases.commands';
import type { SessionUser } from '../../src/http/context';
import { caseTransitionUpdate } from '../../workflows/case/case.contract';
import { getTestEnv, stopTestEnv } from '../helpers/env';

async function main() {
  const env = await getTestEnv();
  try {
    const tenant = await env.createTenant('REPLAY1');
    const mk = async (roles: ('analyst' | 'co')[]) => {
      const u = await env.createUser({ tenant, roles });
      return { cod_utente: u.cod_utente, cod_azienda: tenant, username: u.username, email: '', nome: '', cognome: '', ruoli: roles, totp_enabled: true } as SessionUser;
    };
    const analyst = await mk(['analyst']);
    const co = await mk(['co']);
    const temporal = { client: env.temporal, taskQueue: env.deps.config.temporal.taskQueue };
    const { workflowId } = await createCase(temporal, { codAzienda: tenant, user: analyst, slaDays: 30, data: { titolo: 'Replay', descrizione: 'storia registrata', tipo: 'indagine', priorita: 'alta' } });
    const h = env.temporal.workflow.getHandle(workflowId);
    const send = (u: SessionUser, args: Record<string, unknown>) =>
      h.executeUpdate(caseTransitionUpdate, { args: [{ ...args, actor: { id: u.cod_utente, username: u.username, roles: u.ruoli } } as never] });
    await send(analyst, { action: 'add-event', event: { tipo: 'nota', testo: 'nota' } });
    await send(analyst, { action: 'escalate', reason: 'importi' });
    await send(analyst, { action: 'escalate' }).catch(() => undefined); // rejected by the validator: not in history
    await send(analyst, { action: 'close', outcome: 'archiviato', reason: 'nessun riscontro' });
    await send(co, { action: 'reopen' });
    await send(analyst, { action: 'close', outcome: 'sos_inviata', reason: 'segnalata' });
    await send(co, { action: 'complete-closure' });
    await h.result();
    // The CLI writes proto3 JSON, the format Worker.runReplayHistories reads back.
    const json = execFileSync(temporalCliPath(), ['workflow', 'show', '--workflow-id', workflowId, '--address', env.temporalAddress,
      '--namespace', env.deps.config.temporal.namespace, '--output', 'json'], { encoding: 'utf8' });
    const file = join(import.meta.dirname, 'histories', process.argv[2] ?? 'case-full-lifecycle.json');
    writeFileSync(file, json);
    console.log(`wrote ${file} (${JSON.parse(json).events.length} events)`);
  } finally {
    await stopTestEnv();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
