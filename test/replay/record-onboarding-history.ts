/**
 * Records the histories of real onboarding cases and of their ceremonies on the dev server
 * into test/replay/histories/: a company with two owners (one a PEP), a self-declared
 * custodial wallet with the travel-rule declaration, submission, a declarations ceremony
 * locked by three wrong codes (its end reaches the case by signal), a fresh ceremony signed,
 * wallet verification and the four-eyes approval; then, on a server that suggests
 * continue-as-new after a dozen events, the first run of a case that continued as new. Run
 * it again when a deliberate, patched change needs a new baseline: give the files new names,
 * old histories stay, so the new code must still replay them.
 *   node --import tsx test/replay/record-onboarding-history.ts [suffix of the new file names]
 */
import assert from 'node:assert/strict';
import { staffActor } from '../../src/kit/actor';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { temporalCliPath } from '../../temporal/binaries';
import { transitionOnboarding } from '../../src/domains/onboarding/onboarding.commands';
import { completeSubmission, onboardingTemporal, reloadCase, submitCase } from '../../src/domains/onboarding/onboarding.service';
import { onboardingEsignToken } from '../../src/domains/onboarding/onboarding.tokens';
import type { SessionUser } from '../../src/http/context';
import { esignWorkflowId } from '../../workflows/esign/esign.contract';
import { startContinueAsNewStack } from '../helpers/continue-as-new-stack';
import { getTestEnv, stopTestEnv, type TestEnv } from '../helpers/env';
import { completeDraft, signOnboardingCeremony, waitFor, waitForStatus } from '../helpers/onboarding';

const dump = (env: TestEnv, workflowId: string, name: string, runId?: string) => {
  // The CLI writes proto3 JSON, the format Worker.runReplayHistories reads back.
  const json = execFileSync(temporalCliPath(), ['workflow', 'show', '--workflow-id', workflowId, ...(runId ? ['--run-id', runId] : []),
    '--address', env.temporalAddress, '--namespace', env.deps.config.temporal.namespace, '--output', 'json'], { encoding: 'utf8' });
  const file = join(import.meta.dirname, 'histories', process.argv[2] ? name.replace(/\.json$/, `-${process.argv[2]}.json`) : name);
  writeFileSync(file, json);
  console.log(`wrote ${file} (${JSON.parse(json).events.length} events)`);
};

async function lockCeremony(env: TestEnv, ceremonyId: string) {
  const token = onboardingEsignToken(env.deps.config.sessionSecret, ceremonyId);
  const anon = env.client();
  const path = `/api/v1/esign/ceremony/${ceremonyId}`;
  await waitFor('the ceremony', async () => (await anon.get(`${path}?token=${encodeURIComponent(token)}`)).status === 200);
  for (const step of ['terms', 'present']) assert.equal((await anon.post(`${path}/${step}`, { token })).status, 200);
  for (let i = 0; i < 3; i++) await anon.post(`${path}/sign`, { token, otp: '000000' });
}

async function main() {
  const env = await getTestEnv();
  try {
    const tenant = await env.createTenant('REPLAYONB2');
    const mk = async (roles: ('analyst' | 'co')[]) => {
      const u = await env.createUser({ tenant, roles });
      return { cod_utente: u.cod_utente, cod_azienda: tenant, username: u.username, email: '', nome: '', cognome: '', ruoli: roles, totp_enabled: true } as SessionUser;
    };
    const [analyst, coA, coB] = [await mk(['analyst']), await mk(['co']), await mk(['co'])];
    const c = await completeDraft(env, tenant, {
      pepOwner: true,
      wallets: [{ rete: 'BTC', indirizzo: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', tipo: 'custodial', vasp_nome: 'Exchange Esempio S.p.A.', volume_annuo_eur: '800' }],
    });
    const { firma } = await submitCase(env.deps, c.row);
    await lockCeremony(env, firma!.ceremony_id);
    const ended = await waitFor('the locked ceremony on the case', async () => {
      const r = await reloadCase(env.deps, c.row);
      return r.declarations_stato === 'ended' ? r : undefined;
    });
    const again = await completeSubmission(env.deps, ended);
    assert.ok(!again.done);
    await signOnboardingCeremony(env, again.firma.ceremony_id);
    let row = await waitForStatus(env, c, 'in_review');

    const t = await onboardingTemporal(env.deps);
    const walletId = (await env.ownerDb('onboarding_wallets').where({ case_id: c.caseId }).first()).id as string;
    await transitionOnboarding(t, row, { action: 'approve', actor: staffActor(coA) }).catch(() => undefined); // wallet pending: refused in the handler
    await transitionOnboarding(t, row, { action: 'wallet-verify', actor: staffActor(analyst), input: { wallet_id: walletId } });
    await transitionOnboarding(t, row, { action: 'approve', actor: staffActor(coA), input: { note: 'PEP: serve la seconda approvazione' } });
    row = await waitForStatus(env, c, 'pending_second_approval');
    await transitionOnboarding(t, row, { action: 'complete-approval', actor: staffActor(coB) });
    await env.temporal.workflow.getHandle(row.workflow_id).result();
    dump(env, row.workflow_id, 'onboarding-company-four-eyes-projection-first.json');
    dump(env, esignWorkflowId(tenant, firma!.ceremony_id), 'esign-declarations-locked-signals-parent.json');

    // A draft on a server that suggests continue-as-new after a dozen events: its first run ends by continuing as new.
    const stack = await startContinueAsNewStack(env, 12);
    try {
      const d = await completeDraft(stack, tenant);
      const runs = await waitFor('a second run', async () => { const r = await stack.runsOf(d.row.workflow_id); return r.length > 1 ? r : undefined; });
      dump(stack, d.row.workflow_id, 'onboarding-draft-continued-as-new.json', runs[0]!.runId);
    } finally {
      await stack.stop();
    }
  } finally {
    await stopTestEnv();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
