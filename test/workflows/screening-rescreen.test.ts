import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createScreeningRescreenActivities } from '../../activities/screening/screening-rescreen.activities';
import { rescreenTenantPage } from '../../src/domains/screening/screening.rescreen';
import { workflowBundle } from '../../temporal/bundle';
import {
  SCREENING_IMPORT_WORKFLOW_TYPE, screeningImportWorkflowId, screeningRescreenWorkflowId, type ScreeningImportResult,
} from '../../workflows/screening/screening.contract';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

/** Names nobody else's test uses, so that only these subjects match these entries. */
const LISTED = ['Bartolomeo Quirinale Vescovado', 'Ermenegilda Trasimeno Borromini', 'Policarpo Zanardelli Fioravanti'];
const UNLISTED = ['Anselmo Pradella', 'Clotilde Venturoli', 'Demetrio Scaglione', 'Fulvia Marchetto'];

const euXml = (names: string[]) => `<?xml version="1.0" encoding="UTF-8"?>
<export xmlns="http://eu.europa.ec/fpi/fsd/export">
${names.map((n, i) => `  <sanctionEntity logicalId="77${i}" euReferenceNumber="EU.77${i}.99">
    <subjectType code="person"/>
    <nameAlias wholeName="${n}" strong="true"/>
    <regulation programme="TEST"/>
  </sanctionEntity>`).join('\n')}
</export>`;

describe('re-screen after an import: per tenant, page by page, exactly once under retries', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let dataDir: string;
  const previousDir = process.env.SANCTIONS_DATA_DIR;
  const tenants: string[] = [];
  const officers: TestClient[] = [];

  before(async () => {
    env = await getTestEnv();
    dataDir = mkdtempSync(join(tmpdir(), 'cp-sanctions-rescreen-'));
    mkdirSync(join(dataDir, 'eu'));
    writeFileSync(join(dataDir, 'eu', 'eu.xml'), euXml(LISTED));
    process.env.SANCTIONS_DATA_DIR = dataDir;
    for (let i = 0; i < 3; i++) {
      const t = await env.createTenant();
      tenants.push(t);
      officers.push(await env.login(await env.createUser({ tenant: t, roles: ['co'] })));
    }
    // Seven subjects a tenant, listed names spread over the pages of three (first, middle, last).
    for (const co of officers) {
      for (const [i, nome] of [LISTED[0], UNLISTED[0], UNLISTED[1], LISTED[1], UNLISTED[2], UNLISTED[3], LISTED[2]].entries()) {
        const r = await co.post('/api/v1/screening/run', { nome, tipo: 'person', cod_anagrafe: `RS-${i}` });
        assert.equal(r.status, 200, r.text);
      }
    }
  });

  after(() => {
    if (previousDir === undefined) delete process.env.SANCTIONS_DATA_DIR; else process.env.SANCTIONS_DATA_DIR = previousDir;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('screens every subject once and creates each match once, though pages fail and are retried', async () => {
    const [lostAfterCommit, crashMidPage, failBeforeWork] = tenants as [string, string, string];
    const injected: string[] = [];
    const deps = { db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: env.deps.config };
    const real = createScreeningRescreenActivities(deps);
    const activities = {
      ...createActivities(deps),
      ...real,
      async rescreenPage(p: Parameters<typeof real.rescreenPage>[0]) {
        const { attempt } = Context.current().info;
        // The page commits, then the worker dies before Temporal hears of it: the retry must not screen it again.
        if (p.codAzienda === lostAfterCommit && p.after === null && attempt === 1) {
          await real.rescreenPage(p);
          injected.push('lost-after-commit');
          throw ApplicationFailure.retryable('worker lost after the page committed');
        }
        // A failure in the middle of the page's transaction: what it screened rolls back and is redone.
        if (p.codAzienda === crashMidPage && p.after !== null && attempt === 1) {
          let screened = 0;
          return rescreenTenantPage(env.deps.db, p, {
            progress: (d) => {
              if (d.after !== p.after && ++screened === 2) { injected.push('crash-mid-page'); throw new Error('crash in the middle of a page'); }
            },
          });
        }
        if (p.codAzienda === failBeforeWork && attempt === 1) {
          injected.push('fail-before-work');
          throw ApplicationFailure.retryable('database unavailable');
        }
        return real.rescreenPage(p);
      },
    };
    const taskQueue = `rescreen-test-${randomUUID()}`;
    const connection = await NativeConnection.connect({ address: env.temporalAddress });
    const worker = await Worker.create({ connection, namespace: env.deps.config.temporal.namespace, taskQueue, workflowBundle: await workflowBundle(), activities });
    const runId = randomUUID();
    let result!: ScreeningImportResult;
    try {
      await worker.runUntil(async () => {
        result = await env.temporal.workflow.execute(SCREENING_IMPORT_WORKFLOW_TYPE, {
          workflowId: screeningImportWorkflowId(runId), taskQueue, args: [{ runId, trigger: 'manual', rescreenPageSize: 3 }],
        }) as ScreeningImportResult;
      });
    } finally {
      await connection.close();
    }
    assert.ok(injected.includes('lost-after-commit') && injected.includes('crash-mid-page') && injected.includes('fail-before-work'), injected.join());
    const eu = result.lists.find((l) => l.list === 'eu_fsf')!;
    assert.ok(eu.added + eu.modified >= LISTED.length, JSON.stringify(eu));

    for (const t of tenants) {
      const subjects = await env.ownerDb('screening_subjects').where({ cod_azienda: t });
      assert.equal(subjects.length, 7);
      assert.ok(subjects.every((s: { rescreen_run_id: string }) => s.rescreen_run_id === runId), `every subject of ${t} re-screened by the run`);
      const progress = await env.ownerDb('screening_rescreens').where({ run_id: runId, cod_azienda: t }).first();
      assert.equal(progress.status, 'completed');
      assert.equal(progress.subjects_total, 7);
      assert.equal(progress.subjects_done, 7, `${t}: each subject counted once`);
      assert.equal(progress.pages_done, 3, `${t}: pages of 3, 3 and 1`);
      assert.equal(progress.workflow_id, screeningRescreenWorkflowId(t, runId));
      const matches = await env.ownerDb('screening_matches').where({ cod_azienda: t, import_run_id: runId });
      const byName = new Map(subjects.map((s: { id: string; nome: string }) => [s.id, s.nome]));
      assert.deepEqual(matches.map((m: { subject_id: string }) => byName.get(m.subject_id)).sort(), [...LISTED].sort(), `${t}: one match per listed subject`);
      assert.equal(progress.matches_created, 3);
      const created = await env.ownerDb('audit_events').where({ cod_azienda: t, action: 'screening.match.create' }).whereIn('entity_id', matches.map((m: { id: string }) => m.id));
      assert.equal(created.length, 3, `${t}: one audit event per match`);
      const closed = await env.ownerDb('audit_events').where({ cod_azienda: t, action: 'screening.rescreen.completed', entity_id: runId });
      assert.equal(closed.length, 1);
      assert.deepEqual(closed[0].data, { subjects: 7, pages: 3, matches: 3 });
      const desc = await env.temporal.workflow.getHandle(screeningRescreenWorkflowId(t, runId)).describe();
      assert.deepEqual([desc.searchAttributes.CodAzienda, desc.searchAttributes.RecordStatus], [[t], ['completed']]);
    }
    const run = await env.ownerDb('screening_import_runs').where({ id: runId }).first();
    assert.equal(run.status, 'completed');
    const allRows = await env.ownerDb('screening_rescreens').where({ run_id: runId });
    assert.equal(run.matches_created, allRows.reduce((n: number, r: { matches_created: number }) => n + r.matches_created, 0));
    assert.equal(result.matchesCreated, run.matches_created);

    // The status API: a tenant's officer sees its own tenant's re-screen, the superadmin every tenant's.
    const mine = await officers[0]!.get('/api/v1/screening/import/stato');
    assert.equal(mine.status, 200, mine.text);
    assert.equal(mine.body.run.id, runId);
    assert.deepEqual(mine.body.rescreen.tenants.map((r: { cod_azienda: string }) => r.cod_azienda), [tenants[0]]);
    assert.deepEqual([mine.body.rescreen.subjects_done, mine.body.rescreen.matches_created], [7, 3]);
    const platform = await env.login(await env.createUser({ tenant: null, roles: ['superadmin'] }));
    const all = await platform.get('/api/v1/screening/import/stato');
    const seen = all.body.rescreen.tenants.map((r: { cod_azienda: string }) => r.cod_azienda);
    assert.ok(tenants.every((t) => seen.includes(t)), seen.join());
    assert.equal(all.body.rescreen.tenants_total, allRows.length);
    const page = await platform.get('/admin/screening/import', { accept: 'text/html' });
    assert.match(page.text, /Nuova verifica dei soggetti/);
    for (const t of tenants) assert.match(page.text, new RegExp(`data-tenant="${t}"`));
  });
});
