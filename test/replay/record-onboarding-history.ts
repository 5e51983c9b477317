/**
 * Records the histories of a real onboarding case and of its declarations ceremony on the
 * dev server into test/replay/histories/: a company with two owners (one a PEP), a
 * self-declared custodial wallet with the travel-rule declaration, submission, signature,
 * wallet verification and the four-eyes approval. Run it again when a deliberate, patched
 * change needs a new baseline; old histories stay, so the new code must still replay them.
 *   node --import tsx test/replay/record-onboarding-history.ts
 */
import { staffActor } from '../../src/kit/actor';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { temporalCliPath } from '../../temporal/binaries';
import { transitionOnboarding } from '../../src/domains/onboarding/onboarding.commands';
import { onboardingTemporal, reloadCase } from '../../src/domains/onboarding/onboarding.service';
import type { SessionUser } from '../../src/http/context';
import { esignWorkflowId } from '../../workflows/esign/esign.contract';
import { getTestEnv, stopTestEnv } from '../helpers/env';
import { caseInReview, waitForStatus } from '../helpers/onboarding';

async function main() {
  const env = await getTestEnv();
  try {
    const tenant = await env.createTenant('REPLAYONB');
    const mk = async (roles: ('analyst' | 'co')[]) => {
      const u = await env.createUser({ tenant, roles });
      return { cod_utente: u.cod_utente, cod_azienda: tenant, username: u.username, email: '', nome: '', cognome: '', ruoli: roles, totp_enabled: true } as SessionUser;
    };
    const [analyst, coA, coB] = [await mk(['analyst']), await mk(['co']), await mk(['co'])];
    const c = await caseInReview(env, tenant, {
      pepOwner: true,
      wallets: [{ rete: 'BTC', indirizzo: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', tipo: 'custodial', vasp_nome: 'Exchange Esempio S.p.A.', volume_annuo_eur: '800' }],
    });
    const t = await onboardingTemporal(env.deps);
    const walletId = (await env.ownerDb('onboarding_wallets').where({ case_id: c.caseId }).first()).id as string;
    let row = await reloadCase(env.deps, c.row);
    await transitionOnboarding(t, row, { action: 'approve', actor: staffActor(coA) }).catch(() => undefined); // wallet pending: refused in the handler
    await transitionOnboarding(t, row, { action: 'wallet-verify', actor: staffActor(analyst), input: { wallet_id: walletId } });
    await transitionOnboarding(t, row, { action: 'approve', actor: staffActor(coA), input: { note: 'PEP: serve la seconda approvazione' } });
    row = await waitForStatus(env, c, 'pending_second_approval');
    await transitionOnboarding(t, row, { action: 'complete-approval', actor: staffActor(coB) });
    await env.temporal.workflow.getHandle(row.workflow_id).result();

    const dump = (workflowId: string, name: string) => {
      // The CLI writes proto3 JSON, the format Worker.runReplayHistories reads back.
      const json = execFileSync(temporalCliPath(), ['workflow', 'show', '--workflow-id', workflowId, '--address', env.temporalAddress,
        '--namespace', env.deps.config.temporal.namespace, '--output', 'json'], { encoding: 'utf8' });
      const file = join(import.meta.dirname, 'histories', name);
      writeFileSync(file, json);
      console.log(`wrote ${file} (${JSON.parse(json).events.length} events)`);
    };
    dump(row.workflow_id, 'onboarding-company-four-eyes.json');
    const ceremony = (await env.ownerDb('onboarding_cases').where({ id: c.caseId }).first()).declarations_ceremony_id as string;
    dump(esignWorkflowId(tenant, ceremony), 'esign-declarations-child.json');
  } finally {
    await stopTestEnv();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
