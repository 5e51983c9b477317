import assert from 'node:assert/strict';
import { createTravelRuleActivities } from '../../activities/travel-rule/travel-rule.activities';
import { decideTransfer, recordTransfer, transitionTransfer, type TravelRuleDeps } from '../../src/domains/verifications';
import { workflowsEntry } from '../../temporal/bundle';
import type { MachineActor } from '../../workflows/lib/machine';
import { TRAVEL_RULE_HOLD_DAYS, travelRuleStateQuery } from '../../workflows/travel-rule/travel-rule.contract';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { useTimeSkippingSuite, type TimeSkippingTest } from '../helpers/time-skipping';
import { ivms101Payload } from '../helpers/travel-rule-fixture';

const DAY = 86_400_000;

/**
 * A held transfer waits TRAVEL_RULE_HOLD_DAYS for the missing data (the production duration, on
 * the time-skipping server): then the platform returns it (incoming) or rejects it (outgoing),
 * with the rule that led there; data completed in time stops the clock and the transfer is decided again.
 */
describe('travel-rule transfer: the deadline of a held transfer (time-skipping server)', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let tenant: string;
  let co: MachineActor;
  let n = 0;
  const activities: Record<string, unknown> = {};

  before(async () => {
    env = await getTestEnv();
    const deps = { db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: env.deps.config, dispatch: env.deps.dispatch };
    Object.assign(activities, createTravelRuleActivities(deps));
    tenant = await env.createTenant();
    const u = await env.createUser({ tenant, roles: ['co'] });
    co = { id: u.cod_utente, username: u.username, roles: ['co'] };
  });
  const suite = useTimeSkippingSuite({ name: 'travel-rule-hold', workflowsPath: workflowsEntry(), activities });

  const deps = (t: TimeSkippingTest): TravelRuleDeps => ({ db: env.deps.db, client: t.client, taskQueue: t.taskQueue });
  async function heldTransfer(t: TimeSkippingTest, direzione: 'in_entrata' | 'in_uscita') {
    const { record } = await recordTransfer(deps(t), {
      codAzienda: tenant, actor: co, input: {
        riferimento_esterno: `HOLD-${++n}`, direzione, cod_anagrafe: null, asset: 'BTC', rete: 'BTC', importo: '0.1', importo_eur: 6000, tx_hash: null,
        indirizzo_originatore: null, indirizzo_beneficiario: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh', tipo_wallet: 'vasp', vasp_controparte: 'Krypto Bank AG',
        prova_controllo: null, ivms101: ivms101Payload({ senzaNomeBeneficiario: true }),
      },
    });
    await transitionTransfer(deps(t), { codAzienda: tenant, actor: co, codTransazione: record.cod_transazione, action: 'screen' });
    const held = await decideTransfer(deps(t), { codAzienda: tenant, actor: co, codTransazione: record.cod_transazione, decisione: 'held', motivo: 'Richiesto il nome del beneficiario' });
    assert.equal(held.stato, 'held');
    return { record, h: t.client.workflow.getHandle(record.workflow_id) };
  }

  it(`incoming: returned by the platform ${TRAVEL_RULE_HOLD_DAYS} days after it was held, not a moment before`, () => suite.run(async (t) => {
    const { record, h } = await heldTransfer(t, 'in_entrata');
    const heldUntil = Date.parse((await h.query(travelRuleStateQuery)).heldUntil!);
    assert.ok(Math.abs(heldUntil - (await t.now()) - TRAVEL_RULE_HOLD_DAYS * DAY) < 60_000);
    await t.sleep(TRAVEL_RULE_HOLD_DAYS * DAY - 3_600_000);
    assert.equal((await h.query(travelRuleStateQuery)).status, 'held');
    await t.sleep(2 * 3_600_000);
    const final = await h.result();
    assert.equal(final.status, 'returned');
    const row = await env.ownerDb('travel_rule_transazioni').where({ id: record.id }).first();
    assert.equal(row.stato, 'returned');
    assert.equal(row.decided_by, 'system');
    assert.match(row.motivo, /non ricevute entro 5 giorni/);
    assert.ok(row.regole.some((r: { regola: string; esito: string }) => r.regola === 'termine_integrazione' && r.esito === 'violata'));
    const history = await env.ownerDb('travel_rule_decisioni').where({ transazione_id: record.id }).orderBy('decided_at').pluck('decisione');
    assert.deepEqual(history, ['held', 'returned']);
    const audit = await env.ownerDb('audit_events').where({ entity_id: record.id, action: 'travel_rule.decide' }).orderBy('id').select('actor', 'data');
    assert.deepEqual(audit.map((a) => [a.actor, a.data.decisione, a.data.automatico]), [[co.username, 'held', false], ['system', 'returned', true]]);
  }));

  it('outgoing: rejected at the deadline (the originator\'s provider does not execute it)', () => suite.run(async (t) => {
    const { record, h } = await heldTransfer(t, 'in_uscita');
    await t.sleep(TRAVEL_RULE_HOLD_DAYS * DAY + 60_000);
    assert.equal((await h.result()).status, 'rejected');
    assert.equal((await env.ownerDb('travel_rule_transazioni').where({ id: record.id }).first()).stato, 'rejected');
  }));

  it('the data completed in time stops the clock: screened again, then approved by a person', () => suite.run(async (t) => {
    const { record, h } = await heldTransfer(t, 'in_entrata');
    await t.sleep(2 * DAY);
    const done = await transitionTransfer(deps(t), { codAzienda: tenant, actor: co, codTransazione: record.cod_transazione, action: 'complete', ivms101: ivms101Payload() });
    assert.equal(done.stato, 'screened');
    assert.equal((await h.query(travelRuleStateQuery)).heldUntil, null);
    await t.sleep(TRAVEL_RULE_HOLD_DAYS * DAY);
    assert.equal((await h.query(travelRuleStateQuery)).status, 'screened', 'no deadline runs once the data is in');
    const approved = await decideTransfer(deps(t), { codAzienda: tenant, actor: co, codTransazione: record.cod_transazione, decisione: 'approved' });
    assert.equal(approved.stato, 'approved');
    assert.equal((await h.result()).status, 'approved');
  }));
});
