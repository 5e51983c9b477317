import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { withTenant } from '../../src/db/tenant';
import { updateCustomer } from '../../src/domains/records';
import { startAssessment } from '../../src/domains/risk';
import { RISK_SYSTEM_ACTOR } from '../../workflows/risk/risk-assessment.contract';
import { RISK_EVENTS_WORKFLOW_TYPE, type RiskEventsTenantResult } from '../../workflows/risk/risk-events.contract';
import { getTestEnv, type TestEnv } from '../helpers/env';

/**
 * The risk events sweep (Schedule `risk-events`): a new screening match, a change of the
 * customer's data and a completed CDD task each start one assessment of the customer (one per
 * customer per run), once however often the sweep runs; the class a release writes on the
 * customer record is no event (a release never starts the next assessment).
 */
describe('risk events sweep: matches, changed data and CDD completed start assessments, once', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let n = 0;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
  });

  async function customer(over: Record<string, unknown> = {}): Promise<string> {
    const cod = `ANA-${String(++n).padStart(6, '0')}`;
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: cod, tipo_soggetto: 'persona_fisica', denominazione: `Cliente ${n}`, nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test', ...over });
    return cod;
  }
  const sweep = async (): Promise<RiskEventsTenantResult> => {
    const all = await env.temporal.workflow.execute(RISK_EVENTS_WORKFLOW_TYPE, {
      workflowId: `risk-events-test:${randomUUID()}`, taskQueue: env.deps.config.temporal.taskQueue, args: [],
    }) as RiskEventsTenantResult[];
    const mine = all.find((r) => r.codAzienda === tenant);
    assert.ok(mine, 'the sweep visits every active tenant');
    return mine;
  };
  const assessmentsOf = (cod: string) => env.ownerDb('rischio_valutazioni').where({ cod_azienda: tenant, cod_anagrafe: cod }).orderBy('created_at');

  it('a change of the data the rules read starts one assessment; the release it causes starts none', async () => {
    const cod = await customer();
    const quiet = await customer();
    await startAssessment(env.deps, { codAzienda: tenant, actor: RISK_SYSTEM_ACTOR, codAnagrafe: cod, motivo: 'manuale' });
    await startAssessment(env.deps, { codAzienda: tenant, actor: RISK_SYSTEM_ACTOR, codAnagrafe: quiet, motivo: 'manuale' });
    // The first releases wrote the class on the records (versions of classe_rischio alone): no event.
    assert.equal((await sweep()).started, 0);

    await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => updateCustomer(trx, tenant, 'test', cod, { pep: true }));
    const first = await sweep();
    assert.equal(first.started, 1);
    const [, next, ...more] = await assessmentsOf(cod);
    assert.equal(more.length, 0);
    assert.equal(next.motivo, 'evento_anagrafe');
    assert.equal(next.stato, 'released', 'a PEP now: the class goes up and applies at once');
    assert.equal(next.classe_effettiva, 'medio_alto');
    assert.equal((await assessmentsOf(quiet)).length, 1);

    assert.equal((await sweep()).started, 0, 'the same event, and the release\'s own version, start nothing');
    assert.equal((await assessmentsOf(cod)).length, 2);
  });

  it('a new screening match starts one assessment that reads it, once', async () => {
    const cod = await customer();
    await startAssessment(env.deps, { codAzienda: tenant, actor: RISK_SYSTEM_ACTOR, codAnagrafe: cod, motivo: 'manuale' });
    const subject = randomUUID();
    const match = randomUUID();
    await env.ownerDb('screening_subjects').insert({ id: subject, cod_azienda: tenant, tipo: 'person', nome: `Soggetto ${cod}`, cod_anagrafe: cod });
    await env.ownerDb('screening_matches').insert({ id: match, cod_azienda: tenant, subject_id: subject, list_name: 'EU', entry_id: `e-${cod}`, entry_hash: 'h', score: 0.93, stato: 'open' });
    const r = await sweep();
    assert.equal(r.started, 1);
    const [, next] = await assessmentsOf(cod);
    assert.equal(next.motivo, 'evento_screening');
    assert.equal(next.riferimento, match);
    assert.ok((next.contributi as { codice: string }[]).some((c) => c.codice === 'screening_aperto'), 'the open match is read by the rules');
    const eventi = await env.ownerDb('rischio_eventi').where({ cod_azienda: tenant, cod_anagrafe: cod });
    assert.deepEqual(eventi.map((e: { chiave: string; valutazione_id: string }) => [e.chiave, e.valutazione_id]), [[`match:${match}`, next.id]]);
    assert.equal((await sweep()).started, 0);
  });
  it('a completed CDD task starts one assessment, once; an older or unfinished one starts none', async () => {
    const cod = await customer();
    await startAssessment(env.deps, { codAzienda: tenant, actor: RISK_SYSTEM_ACTOR, codAnagrafe: cod, motivo: 'manuale' });
    assert.equal((await sweep()).started, 0);
    const pratica = (stato: string, completedDaysAgo: number | null, i: number) => {
      const id = randomUUID();
      const at = completedDaysAgo === null ? null : new Date(Date.now() - completedDaysAgo * 86_400_000);
      return {
        id, cod_azienda: tenant, cod_pratica: `CDD-${String(900_000 + n * 10 + i)}`, cod_anagrafe: cod, livello: 'ordinaria', motivo: 'manuale', stato,
        due_at: new Date(Date.now() + 30 * 86_400_000), created_by: 'test', workflow_id: `cdd-test:${id}`, completed_at: at, completed_by: at ? 'test' : null,
      };
    };
    // Completed a month ago (before the sweep's window) and still in progress: no event.
    await env.ownerDb('cdd_pratiche').insert([pratica('completed', 30, 1), pratica('in_progress', null, 2)]);
    assert.equal((await sweep()).started, 0);
    const done = pratica('completed', 0, 3);
    await env.ownerDb('cdd_pratiche').insert(done);
    const r = await sweep();
    assert.equal(r.started, 1);
    const [, next, ...more] = await assessmentsOf(cod);
    assert.equal(more.length, 0);
    assert.equal(next.motivo, 'evento_cdd');
    assert.equal(next.riferimento, done.id);
    const eventi = await env.ownerDb('rischio_eventi').where({ cod_azienda: tenant, cod_anagrafe: cod });
    assert.deepEqual(eventi.map((e: { chiave: string; motivo: string; valutazione_id: string }) => [e.chiave, e.motivo, e.valutazione_id]), [[`cdd:${done.id}`, 'evento_cdd', next.id]]);
    assert.equal((await sweep()).started, 0, 'the same completion starts nothing again');
    assert.equal((await assessmentsOf(cod)).length, 2);
  });
});
