/**
 * Records the history of a real risk assessment workflow on the dev server into test/replay/histories/:
 * created, calculated and released by the system (a PEP, no class in force), an override refused
 * without its reason and then proposed, a confirmation by its own author refused (four-eyes, not
 * in history), confirmed by another compliance officer (released at once, CDD consequences),
 * archived by hand.
 * Run it again when a deliberate, patched change needs a new baseline; old histories stay.
 *   node --import tsx test/replay/record-risk-assessment-history.ts [file name, default risk-assessment-override-released.json]
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporalCliPath } from '../../temporal/binaries';
import { startAssessment } from '../../src/domains/risk';
import { riskAssessmentTransitionUpdate, type RiskAssessmentTransitionArgs } from '../../workflows/risk/risk-assessment.contract';
import { getTestEnv, stopTestEnv } from '../helpers/env';

async function main() {
  const env = await getTestEnv();
  try {
    const tenant = await env.createTenant('REPLAYRISK');
    const mk = async (roles: ('analyst' | 'co')[]) => {
      const u = await env.createUser({ tenant, roles });
      return { id: u.cod_utente, username: u.username, roles };
    };
    const analyst = await mk(['analyst']);
    const co = await mk(['co']);
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: 'ANA-000001', tipo_soggetto: 'persona_fisica', denominazione: 'Replay PEP', pep: true, created_by: 'test' });
    const row = await startAssessment(env.deps, { codAzienda: tenant, actor: analyst, codAnagrafe: 'ANA-000001', motivo: 'manuale' });
    const h = env.temporal.workflow.getHandle(row.workflow_id);
    const send = (a: typeof analyst, args: Omit<RiskAssessmentTransitionArgs, 'actor'>) => h.executeUpdate(riskAssessmentTransitionUpdate, { args: [{ ...args, actor: a }] });
    await send(analyst, { action: 'override', classe: 'alto' }).catch(() => undefined); // no reason: refused by the validator
    await send(analyst, { action: 'override', classe: 'alto', motivo: 'Notizie di stampa negative', scadenza: '2099-01-01', scadenza_at: '2098-12-31T23:00:00.000Z' });
    await send({ ...analyst, roles: ['co'] }, { action: 'complete-override' }).catch(() => undefined); // four-eyes: refused by the validator
    await send(co, { action: 'complete-override' });
    // Let the release's effects (CDD consequences) run before the archive.
    await new Promise((r) => setTimeout(r, 3_000));
    await send(co, { action: 'archive', nota: 'fine prova' });
    await h.result();
    const json = execFileSync(temporalCliPath(), ['workflow', 'show', '--workflow-id', row.workflow_id, '--address', env.temporalAddress,
      '--namespace', env.deps.config.temporal.namespace, '--output', 'json'], { encoding: 'utf8' });
    const file = join(import.meta.dirname, 'histories', process.argv[2] ?? 'risk-assessment-override-released.json');
    writeFileSync(file, json);
    console.log(`wrote ${file} (${JSON.parse(json).events.length} events)`);
  } finally {
    await stopTestEnv();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
