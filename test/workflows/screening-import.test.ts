import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

interface EuEntity { id: string; name: string; aliases?: string[]; birth?: string }

/** A small EU FSF XML, as the eu-xml importer reads it. */
const euXml = (entities: EuEntity[]) => `<?xml version="1.0" encoding="UTF-8"?>
<export xmlns="http://eu.europa.ec/fpi/fsd/export">
${entities.map((e) => `  <sanctionEntity logicalId="${e.id}" euReferenceNumber="EU.${e.id}.99">
    <subjectType code="person"/>
    <nameAlias wholeName="${e.name}" strong="true" gender="M"/>
${(e.aliases ?? []).map((a) => `    <nameAlias wholeName="${a}" strong="true"/>`).join('\n')}
${e.birth ? `    <birthdate birthdate="${e.birth}"/>` : ''}
    <regulation programme="TEST"/>
  </sanctionEntity>`).join('\n')}
</export>`;

const ZOLTAN = { id: '9001', name: 'Zoltan Abramovic Kerensky', birth: '1961-02-03' };
const OTTAVIO = { id: '9002', name: 'Ottavio Brambillone Fuscaldo' };
const LUDOVICO = { id: '9003', name: 'Ludovico Tartaglini Pescarolo' };

describe('screening import workflow: versions, diff and delta re-screening', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let co: TestClient;
  let platform: TestClient;
  let dataDir: string;
  const previousDir = process.env.SANCTIONS_DATA_DIR;

  before(async () => {
    env = await getTestEnv();
    dataDir = mkdtempSync(join(tmpdir(), 'cp-sanctions-eu-'));
    mkdirSync(join(dataDir, 'eu'));
    process.env.SANCTIONS_DATA_DIR = dataDir;
    const tenant = await env.createTenant();
    co = await env.login(await env.createUser({ tenant, roles: ['co'] }));
    platform = await env.login(await env.createUser({ tenant: null, roles: ['superadmin'] }));
  });

  after(() => {
    if (previousDir === undefined) delete process.env.SANCTIONS_DATA_DIR; else process.env.SANCTIONS_DATA_DIR = previousDir;
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function importNow() {
    const r = await platform.post('/api/v1/admin/screening/imports/trigger', {});
    assert.equal(r.status, 202, r.text);
    assert.equal(r.body.workflow_id, `screening-import:${r.body.run_id}`);
    const result = await env.temporal.workflow.getHandle(r.body.workflow_id).result() as { lists: { list: string; added: number; modified: number; removed: number }[]; matchesCreated: number };
    const desc = await env.temporal.workflow.getHandle(r.body.workflow_id).describe();
    assert.deepEqual(desc.searchAttributes.RecordType, ['screening-import']);
    return { ...result, runId: r.body.run_id as string };
  }

  const matchesOf = async (subjectId: string) =>
    ((await co.get('/api/v1/screening/matches?limit=200')).body.items as { subject_id: string; entry_id: string; entry_hash: string; import_run_id: string | null }[])
      .filter((m) => m.subject_id === subjectId);

  it('imports a list, then re-screens subjects only against added and modified entries', async () => {
    writeFileSync(join(dataDir, 'eu', 'eu.xml'), euXml([ZOLTAN, OTTAVIO]));
    const first = await importNow();
    const eu = first.lists.find((l) => l.list === 'eu_fsf')!;
    assert.deepEqual([eu.added, eu.modified, eu.removed], [2, 0, 0]);

    const screen = async (nome: string) => {
      const r = await co.post('/api/v1/screening/run', { nome, tipo: 'person' });
      assert.equal(r.status, 200, r.text);
      return r.body as { subject: { id: string }; matches_created: { entry_id: string }[] };
    };
    const zoltan = await screen(ZOLTAN.name);
    assert.deepEqual(zoltan.matches_created.map((m) => m.entry_id), ['eu:9001']);
    const ottavio = await screen(OTTAVIO.name);
    assert.deepEqual(ottavio.matches_created.map((m) => m.entry_id), ['eu:9002']);
    const ludovico = await screen(LUDOVICO.name);
    assert.deepEqual(ludovico.matches_created, [], 'not on the list yet');

    // Second publication: Zoltan unchanged, Ottavio modified (new alias), Ludovico added.
    writeFileSync(join(dataDir, 'eu', 'eu.xml'), euXml([ZOLTAN, { ...OTTAVIO, aliases: ['Ottavio Fuscaldo'] }, LUDOVICO]));
    const second = await importNow();
    const eu2 = second.lists.find((l) => l.list === 'eu_fsf')!;
    assert.deepEqual([eu2.added, eu2.modified, eu2.removed], [1, 1, 0]);

    const z = await matchesOf(zoltan.subject.id);
    assert.equal(z.length, 1, 'an unchanged entry raises nothing new');
    const o = await matchesOf(ottavio.subject.id);
    assert.equal(o.length, 2, 'a modified entry is a new pair');
    assert.equal(new Set(o.map((m) => m.entry_hash)).size, 2);
    assert.ok(o.some((m) => m.import_run_id === second.runId));
    const l = await matchesOf(ludovico.subject.id);
    assert.deepEqual(l.map((m) => [m.entry_id, m.import_run_id]), [['eu:9003', second.runId]]);

    const stato = await co.get('/api/v1/screening/import/stato');
    assert.equal(stato.body.run.id, second.runId);
    assert.equal(stato.body.run.status, 'completed');
    assert.ok(stato.body.run.matches_created >= 2);
    assert.deepEqual(stato.body.run.progress.lists.eu_fsf, { ...stato.body.run.progress.lists.eu_fsf, status: 'done', added: 1, modified: 1, removed: 0 });

    // Third publication drops Zoltan: removed, and no longer screened.
    writeFileSync(join(dataDir, 'eu', 'eu.xml'), euXml([{ ...OTTAVIO, aliases: ['Ottavio Fuscaldo'] }, LUDOVICO]));
    const third = await importNow();
    const eu3 = third.lists.find((x) => x.list === 'eu_fsf')!;
    assert.deepEqual([eu3.added, eu3.modified, eu3.removed], [0, 0, 1]);
    const again = await co.post('/api/v1/screening/run', { nome: ZOLTAN.name, tipo: 'person' });
    assert.ok(!again.body.hits.some((h: { entry_id: string }) => h.entry_id === 'eu:9001'));
  });
});
