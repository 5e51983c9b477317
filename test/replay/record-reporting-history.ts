/**
 * Records the history of a real regulatory report workflow on the dev server into
 * test/replay/histories/: generated from a seeded month, refused approval by its generator
 * (validator: not in history), approved by a second officer, submitted, rejected, submitted
 * again and accepted. Run it again for a new baseline after a deliberate, patched change.
 *   node --import tsx test/replay/record-reporting-history.ts [file name, default reporting-completed-resubmitted.json]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { temporalCliPath } from '../../temporal/binaries';
import { generateReports, transitionReport } from '../../src/domains/reporting/reporting.service';
import type { SessionUser } from '../../src/http/context';
import { getTestEnv, stopTestEnv } from '../helpers/env';
import { generatedReport, seedReportingMonth } from '../helpers/reporting-fixture';

async function main() {
  const env = await getTestEnv();
  try {
    const tenant = await env.createTenant('REPLAYREP');
    const mk = async (roles: ('analyst' | 'co')[]) => {
      const u = await env.createUser({ tenant, roles });
      return { user: { cod_utente: u.cod_utente, cod_azienda: tenant, username: u.username, email: '', nome: '', cognome: '', ruoli: roles, totp_enabled: true } as SessionUser, login: () => env.login(u) };
    };
    const [analyst, co] = [await mk(['analyst']), await mk(['co'])];
    const client = await analyst.login();
    await seedReportingMonth(env, tenant, client, '2025-03', 'replay');
    const [report] = await generateReports(env.deps, tenant, analyst.user, { tipo: 'comunicazione_oggettiva', periodo: '2025-03' });
    await generatedReport(client, report!.id);
    await transitionReport(env.deps, tenant, analyst.user, report!.id, { action: 'approve' }).catch(() => undefined);
    await transitionReport(env.deps, tenant, co.user, report!.id, { action: 'approve' });
    const sent = await transitionReport(env.deps, tenant, co.user, report!.id, { action: 'submit', riferimento: 'INFOSTAT-1' });
    await transitionReport(env.deps, tenant, co.user, report!.id, { action: 'complete-submission', submissionId: sent.submissions[0]!.id, esito: 'scartata' });
    const again = await transitionReport(env.deps, tenant, co.user, report!.id, { action: 'submit' });
    await transitionReport(env.deps, tenant, co.user, report!.id, { action: 'complete-submission', submissionId: again.submissions[1]!.id, esito: 'accettata', protocollo: 'UIF-1' });
    await env.temporal.workflow.getHandle(report!.workflow_id).result();
    const json = execFileSync(temporalCliPath(), ['workflow', 'show', '--workflow-id', report!.workflow_id, '--address', env.temporalAddress,
      '--namespace', env.deps.config.temporal.namespace, '--output', 'json'], { encoding: 'utf8' });
    const file = join(import.meta.dirname, 'histories', process.argv[2] ?? 'reporting-completed-resubmitted.json');
    writeFileSync(file, json);
    console.log(`wrote ${file} (${JSON.parse(json).events.length} events)`);
  } finally {
    await stopTestEnv();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
