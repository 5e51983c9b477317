import assert from 'node:assert/strict';
import { WithStartWorkflowOperation } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startTimeSkippingEnv } from '../helpers/time-skipping';
import { Worker } from '@temporalio/worker';
import { workflowsEntry } from '../../temporal/bundle';
import {
  CASE_WORKFLOW_TYPE, caseStateQuery, caseTransitionUpdate, createCaseUpdate, caseWorkflowId,
  type CaseCreation, type CaseOverdue, type CaseProjection, type CaseWorkflowInput,
} from '../../workflows/case/case.contract';

const DAY = 86_400_000;

/**
 * The SLA timer on Temporal's time-skipping test server: 30 real days pass in moments,
 * and the production duration is untouched. Activities are recorders.
 */
describe('case SLA timer (time-skipping server)', function () {
  this.timeout(180_000);
  let env: TestWorkflowEnvironment;
  const calls: { overdue: CaseOverdue[]; created: CaseCreation[]; transitions: CaseProjection[] } = { overdue: [], created: [], transitions: [] };
  const activities = {
    async createCaseProjection(p: CaseCreation) { calls.created.push(p); },
    async projectCaseTransition(p: CaseProjection) { calls.transitions.push(p); },
    async markCaseOverdue(p: CaseOverdue) { calls.overdue.push(p); return { notified: 1 }; },
  };

  before(async () => { env = await startTimeSkippingEnv(); });
  after(async () => { await env?.teardown(); });

  async function startCase(worker: Worker, taskQueue: string, caseId: string, slaDays: number) {
    const start = await env.currentTimeMs();
    const input: CaseWorkflowInput = { codAzienda: 'SLA1', caseId, slaDays, slaDueAt: new Date(Number(start) + slaDays * DAY).toISOString() };
    const op = new WithStartWorkflowOperation(CASE_WORKFLOW_TYPE, {
      workflowId: caseWorkflowId('SLA1', caseId), taskQueue, args: [input], workflowIdConflictPolicy: 'USE_EXISTING',
    });
    await env.client.workflow.executeUpdateWithStart(createCaseUpdate, {
      args: [{ actor: { id: 'u1', username: 'analista', roles: ['analyst'] }, data: { titolo: 'SLA', descrizione: '', tipo: 'indagine', priorita: 'media' } }],
      startWorkflowOperation: op,
    });
    return op.workflowHandle();
  }

  it('marks the case overdue once the SLA passes, and not before', async () => {
    const taskQueue = 'case-sla-overdue';
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath: workflowsEntry(), activities });
    await worker.runUntil(async () => {
      const h = await startCase(worker, taskQueue, '00000000-0000-4000-8000-000000000001', 30);
      await env.sleep(29 * DAY);
      assert.equal(calls.overdue.length, 0, 'not overdue after 29 days');
      assert.equal((await h.query(caseStateQuery)).overdue, false);
      await env.sleep(2 * DAY);
      const s = await h.query(caseStateQuery);
      assert.equal(s.overdue, true);
      assert.equal(calls.overdue.length, 1);
      assert.equal(calls.overdue[0]!.caseId, '00000000-0000-4000-8000-000000000001');
      // Still open and overdue: transitions keep working.
      const after = await h.executeUpdate(caseTransitionUpdate, { args: [{ action: 'escalate', actor: { id: 'u1', username: 'analista', roles: ['analyst'] } }] });
      assert.equal(after.state.status, 'escalated');
      assert.equal(after.state.overdue, true);
    });
  });

  it('never fires for a case closed before its due date', async () => {
    const taskQueue = 'case-sla-closed';
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath: workflowsEntry(), activities });
    const before = calls.overdue.length;
    await worker.runUntil(async () => {
      const h = await startCase(worker, taskQueue, '00000000-0000-4000-8000-000000000002', 30);
      const send = (action: string, who: string, roles: string[], extra: Record<string, unknown> = {}) =>
        h.executeUpdate(caseTransitionUpdate, { args: [{ action, actor: { id: who, username: who, roles }, ...extra } as never] });
      await send('close', 'a1', ['analyst'], { outcome: 'archiviato', reason: 'ok' });
      await send('complete-closure', 'c1', ['co']);
      const result = await h.result();
      assert.equal(result.status, 'closed');
      await env.sleep(40 * DAY);
    });
    assert.equal(calls.overdue.length, before);
  });
});
