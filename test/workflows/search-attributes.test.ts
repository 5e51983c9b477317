import assert from 'node:assert/strict';
import { Client, Connection, type OperatorService } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { freePort } from '../../src/infra/free-port';
import { workflowsEntry } from '../../temporal/bundle';
import { startTemporalDevServer, type RunningTemporal } from '../../temporal/dev-server';
import {
  ensureSearchAttributes, SearchAttributeSetupError, searchAttributeDefinitions,
} from '../../temporal/search-attributes';
import {
  CDD_REVIEW_WORKFLOW_TYPE, cancelCddReviewUpdate, cddReviewStateQuery, cddReviewWorkflowId, type CddReviewInput,
} from '../../workflows/cdd/cdd-review.contract';

const names = Object.keys(searchAttributeDefinitions).sort();
const KEYWORD = 2;
const TEXT = 1;
const DATETIME = 6;

async function eventually<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) { last = err; }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (${String(last)})` : ''}`);
}

/**
 * The application registers its search attributes at start through the operator API, on a
 * cluster that knows nothing of them: here a dev server started without `--search-attribute`.
 */
describe('search attributes registered by the application', function () {
  this.timeout(180_000);
  let server: RunningTemporal;
  let connection: Connection;
  const list = async (namespace = 'default') =>
    Object.fromEntries(Object.entries((await connection.operatorService.listSearchAttributes({ namespace })).customAttributes ?? {}).map(([k, v]) => [k, Number(v)]));

  before(async () => {
    try { Runtime.install({ logger: new DefaultLogger('WARN') }); } catch { /* already installed by another file */ }
    server = await startTemporalDevServer({ port: await freePort() });
    connection = await Connection.connect({ address: server.address });
  });
  after(async () => {
    await connection?.close();
    await server?.stop();
  });

  it('adds every missing one with its type, and a second start changes nothing', async () => {
    const before = await list();
    assert.deepEqual(names.filter((n) => n in before), [], 'the server starts without them');
    const first = await ensureSearchAttributes(connection.operatorService, 'default');
    assert.deepEqual([...first.added].sort(), names);
    const after = await list();
    assert.deepEqual(names.map((n) => [n, after[n]]), names.map((n) => [n, n === 'DueAt' ? DATETIME : KEYWORD]));
    const again = await ensureSearchAttributes(connection.operatorService, 'default');
    assert.deepEqual(again.added, []);
  });

  it('lets a workflow upsert them, and finds the record by them', async () => {
    await ensureSearchAttributes(connection.operatorService, 'default');
    const native = await NativeConnection.connect({ address: server.address });
    const taskQueue = 'search-attributes';
    const worker = await Worker.create({
      connection: native, taskQueue, workflowsPath: workflowsEntry(), activities: { async projectCddReviewChange() {}, async markCddReviewDue() {} },
    });
    const client = new Client({ connection });
    const dueAt = new Date(Date.now() + 365 * 86_400_000);
    const input: CddReviewInput = { codAzienda: 'SA1', codAnagrafe: 'ANA-000001', reviewId: '00000000-0000-4000-8000-0000000005a1', dueAt: dueAt.toISOString() };
    try {
      await worker.runUntil(async () => {
        const h = await client.workflow.start(CDD_REVIEW_WORKFLOW_TYPE, { workflowId: cddReviewWorkflowId('SA1', input.reviewId), taskQueue, args: [input] });
        await h.query(cddReviewStateQuery);
        const sa = (await h.describe()).searchAttributes;
        assert.deepEqual([sa.CodAzienda, sa.RecordType, sa.RecordId, sa.RecordStatus], [['SA1'], ['cdd_review'], [input.reviewId], ['scheduled']]);
        assert.equal(new Date(sa.DueAt![0] as Date).getTime(), dueAt.getTime());
        // Visibility is eventually consistent: the list query finds it shortly after.
        const query = `RecordType = 'cdd_review' AND CodAzienda = 'SA1' AND RecordStatus = 'scheduled' AND DueAt < '${new Date(dueAt.getTime() + 86_400_000).toISOString()}'`;
        const found = await eventually('the review found by its search attributes', async () => {
          const ids: string[] = [];
          for await (const w of client.workflow.list({ query })) ids.push(w.workflowId);
          return ids.length ? ids : undefined;
        });
        assert.deepEqual(found, [h.workflowId]);
        await h.executeUpdate(cancelCddReviewUpdate, { args: [{ actor: { id: 'co1', username: 'co', roles: ['co'] }, reason: 'fine del test' }] });
        assert.equal(await h.result(), 'cancelled');
        assert.deepEqual((await h.describe()).searchAttributes.RecordStatus, ['cancelled']);
      });
    } finally {
      await native.close();
    }
  });

  it('refuses to start on a namespace where one of them has another type', async () => {
    const namespace = 'sa-wrong-type';
    await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
    await eventually('the new namespace takes the attribute', async () => {
      await connection.operatorService.addSearchAttributes({ namespace, searchAttributes: { CodAzienda: TEXT } });
      return (await list(namespace)).CodAzienda === TEXT ? true : undefined;
    });
    await assert.rejects(ensureSearchAttributes(connection.operatorService, namespace), (err: Error) => {
      assert.ok(err instanceof SearchAttributeSetupError, String(err));
      assert.match(err.message, /CodAzienda is Text, the platform needs Keyword/);
      return true;
    });
    assert.equal((await list(namespace)).RecordType, undefined, 'nothing added next to a wrong one');
  });

  it('names the missing ones and how to add them when the connection may not (Temporal Cloud API keys)', async () => {
    const denied = Object.assign(new Error('7 PERMISSION_DENIED: Request unauthorized'), { code: 7 });
    const cloud = {
      async listSearchAttributes() { return { customAttributes: { CodAzienda: KEYWORD, RecordType: KEYWORD } }; },
      async addSearchAttributes() { throw denied; },
    } as unknown as OperatorService;
    await assert.rejects(ensureSearchAttributes(cloud, 'compliance.a1b2c'), (err: Error) => {
      assert.ok(err instanceof SearchAttributeSetupError, String(err));
      assert.match(err.message, /lacks the search attributes RecordId \(Keyword\), RecordStatus \(Keyword\), DueAt \(Datetime\)/);
      assert.doesNotMatch(err.message, /CodAzienda \(/);
      assert.match(err.message, /tcld namespace search-attributes add -n compliance\.a1b2c --sa "RecordId=Keyword"/);
      assert.match(err.message, /Cloud UI/);
      return true;
    });
  });
});
