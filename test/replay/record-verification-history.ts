/**
 * Records the history of a real KYB verification workflow on the dev server into test/replay/histories/:
 * opened through openVerification (row, standard checks, workflow with its validity timer), an
 * approval by an administrator refused (role, not in history), taken in hand, an approval refused
 * by the checks (CHECKS_OPEN, from the projection), a relied-on document changed (signal, deadline
 * read again), the checks passed, approved.
 * Run it again when a deliberate, patched change needs a new baseline; old histories stay.
 *   node --import tsx test/replay/record-verification-history.ts [file name, default verification-kyb-approved.json]
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporalCliPath } from '../../temporal/binaries';
import { withTenant } from '../../src/db/tenant';
import { createDocumento } from '../../src/domains/records';
import { documentsChanged, openVerification, transitionVerification } from '../../src/domains/verifications';
import { getTestEnv, stopTestEnv } from '../helpers/env';

async function main() {
  const env = await getTestEnv();
  try {
    const tenant = await env.createTenant('REPLAYKYB');
    const mk = async (roles: ('analyst' | 'co' | 'admin')[]) => {
      const u = await env.createUser({ tenant, roles });
      return { id: u.cod_utente, username: u.username, roles };
    };
    const analyst = await mk(['analyst']);
    const co = await mk(['co']);
    const admin = await mk(['admin']);
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: 'ANA-000001', tipo_soggetto: 'societa', denominazione: 'Replay S.r.l.', created_by: 'test' });
    const doc = await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => createDocumento(trx, tenant, 'test', {
      cod_anagrafe: 'ANA-000001', tipo: 'visura_camerale', numero: 'V-1', data_rilascio: '2026-01-10', data_scadenza: '2027-06-30',
    }));
    const v = await openVerification(env.deps, { codAzienda: tenant, actor: analyst, tipo: 'kyb', codAnagrafe: 'ANA-000001', origine: 'manuale', documentiIds: [doc.id] });
    const move = (actor: typeof analyst, action: 'start' | 'approve') => transitionVerification(env.deps, { codAzienda: tenant, actor, tipo: 'kyb', codVerifica: v.cod_verifica, action });
    await move(admin, 'approve').catch(() => undefined); // pending, and not an administrator's: refused by the validator
    await move(analyst, 'start');
    await move(co, 'approve').catch(() => undefined); // checks pending: refused by the projection
    await env.ownerDb('documenti').where({ id: doc.id }).update({ data_scadenza: '2027-03-31' });
    await documentsChanged(env.deps, tenant, [doc.id]);
    await new Promise((r) => setTimeout(r, 2_000));
    await env.ownerDb('verifiche_checks').where({ verifica_id: v.id }).update({ stato: 'passed' });
    await move(co, 'approve');
    const h = env.temporal.workflow.getHandle(v.workflow_id);
    await h.result();
    const json = execFileSync(temporalCliPath(), ['workflow', 'show', '--workflow-id', v.workflow_id, '--address', env.temporalAddress,
      '--namespace', env.deps.config.temporal.namespace, '--output', 'json'], { encoding: 'utf8' });
    const file = join(import.meta.dirname, 'histories', process.argv[2] ?? 'verification-kyb-approved.json');
    writeFileSync(file, json);
    console.log(`wrote ${file} (${JSON.parse(json).events.length} events)`);
  } finally {
    await stopTestEnv();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
