/**
 * Records the history of a real filing workflow on the dev server into test/replay/histories/:
 * draft to archived, with a rejection by the approver, the signing ceremony started as a child
 * (its signature signalled as the ceremony does) and a rejected return. Run it again when a
 * deliberate, patched change needs a new baseline; old histories stay.
 *   node --import tsx test/replay/record-filing-history.ts [file name, default filing-full-lifecycle.json]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadJurisdiction } from '../../src/domains/filing/goaml/jurisdiction-loader';
import { parseReportXml } from '../../src/domains/filing/goaml/report-xml';
import { temporalCliPath } from '../../temporal/binaries';
import { esignCompletedSignal } from '../../workflows/esign/esign.contract';
import {
  createFilingUpdate, FILING_WORKFLOW_TYPE, filingTransitionUpdate, filingWorkflowId, type FilingTransitionArgs,
} from '../../workflows/filing/filing.contract';
import type { MachineActor } from '../../workflows/lib/machine';
import { getTestEnv, stopTestEnv } from '../helpers/env';

const GOAML = join(process.cwd(), '..', 'shared', 'data', 'regulatory', 'goaml');

async function main() {
  const env = await getTestEnv();
  try {
    const tenant = await env.createTenant('REPLAYF');
    const mk = async (roles: ('analyst' | 'co')[]): Promise<MachineActor> => {
      const u = await env.createUser({ tenant, roles });
      return { id: u.cod_utente, username: u.username, roles };
    };
    const analyst = await mk(['analyst']);
    const co = await mk(['co']);
    const j = await loadJurisdiction(GOAML, 'ae-goaml-5.0.2');
    const content = parseReportXml(j.model, readFileSync(join(GOAML, 'vyttah-uae-5.0.2', 'golden', 'STR.xml'), 'utf8'));
    const filingId = '7d1c2a4e-0000-4000-8000-00000000f11e';
    const workflowId = filingWorkflowId(tenant, filingId);
    const h = await env.temporal.workflow.start(FILING_WORKFLOW_TYPE, {
      workflowId, taskQueue: env.deps.config.temporal.taskQueue,
      args: [{ codAzienda: tenant, filingId, createdAt: new Date().toISOString(), tipo: 'str', periodo: null }],
    });
    await h.executeUpdate(createFilingUpdate, { args: [{ actor: analyst, data: { titolo: 'Replay', tipo: 'str', content } }] });
    const send = (actor: MachineActor, args: Omit<FilingTransitionArgs, 'actor'>) => h.executeUpdate(filingTransitionUpdate, { args: [{ ...args, actor }] });
    await send(analyst, { action: 'edit', titolo: 'Replay (rivisto)' });
    await send(analyst, { action: 'classify', tipo: 'str', jurisdiction: 'ae-goaml-5.0.2', reportCode: 'STR' });
    await send(analyst, { action: 'validate' });
    await send(analyst, { action: 'mark-ready' });
    await send(analyst, { action: 'submit-for-approval' });
    await send(co, { action: 'reject', reason: 'da rivedere' });
    await send(analyst, { action: 'classify', tipo: 'str', jurisdiction: 'ae-goaml-5.0.2', reportCode: 'STR' });
    await send(analyst, { action: 'validate' });
    await send(analyst, { action: 'mark-ready' });
    await send(analyst, { action: 'submit-for-approval' });
    await send(co, { action: 'approve' });
    const signing = await send(co, { action: 'sign' });
    await h.signal(esignCompletedSignal, { codAzienda: tenant, ceremonyId: signing.state.ceremony!.id, documentSha256: '0'.repeat(64), signedAt: new Date().toISOString() });
    await send(co, { action: 'complete-signing' });
    await send(co, { action: 'render-package' });
    await send(co, { action: 'record-submission', submissionRef: 'PORTAL-1' });
    await send(co, {
      action: 'import-return',
      returnFile: { outcome: 'returned', entityReference: 'X', fiuRefNumber: null, statusDate: null, errors: [{ code: 'E1', path: 'reason', message: 'm', source: 'return' }], fileName: 'r.xml', sha256: '0'.repeat(64) },
    });
    await send(co, { action: 'archive' });
    await h.result();
    // The CLI writes proto3 JSON, the format Worker.runReplayHistories reads back.
    const json = execFileSync(temporalCliPath(), ['workflow', 'show', '--workflow-id', workflowId, '--address', env.temporalAddress,
      '--namespace', env.deps.config.temporal.namespace, '--output', 'json'], { encoding: 'utf8' });
    const file = join(import.meta.dirname, 'histories', process.argv[2] ?? 'filing-full-lifecycle.json');
    writeFileSync(file, json);
    console.log(`wrote ${file} (${JSON.parse(json).events.length} events)`);
  } finally {
    await stopTestEnv();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
