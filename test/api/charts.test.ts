import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { chartOf, seedCases, seedMatches, seedOnboarding } from '../helpers/chart-seeds';

const html = { accept: 'text/html' };
const WEEK = /^\d{1,2} (gen|feb|mar|apr|mag|giu|lug|ago|set|ott|nov|dic)$/;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * The charts of the screening dashboard, the onboarding cases and the cases list, read as the
 * server renders them: the JSON the script draws and the table shown without JavaScript, with
 * seeded rows at known weeks in one tenant and more rows in another that must not be counted.
 */
describe('charts on the screening dashboard, the onboarding cases and the cases list', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let viewer: TestClient;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    viewer = await env.login(await env.createUser({ tenant, roles: ['viewer'] }));
    await seedMatches(env.ownerDb, tenant, [
      { list: 'eu_fsf', stato: 'open', weeksAgo: 0 }, { list: 'eu_fsf', stato: 'open', weeksAgo: 0 },
      { list: 'us_ofac_sdn_2021_07', stato: 'true_match', weeksAgo: 0 },
      { list: 'eu_fsf', stato: 'false_positive', weeksAgo: 3 },
      { list: 'lista</script><b>x', stato: 'assigned', weeksAgo: 3 },
      { list: 'un_sc_sanctions', stato: 'open', weeksAgo: 13 },
      { list: 'eu_fsf', stato: 'open', weeksAgo: 0, deleted: true },
    ]);
    await seedMatches(env.ownerDb, other, Array.from({ length: 5 }, () => ({ list: 'eu_fsf', stato: 'open', weeksAgo: 0 })));
    await seedCases(env.ownerDb, tenant, [
      { stato: 'open', overdue: false }, { stato: 'open', overdue: false }, { stato: 'open', overdue: true },
      { stato: 'escalated', overdue: true }, { stato: 'closed', overdue: false }, { stato: 'closed', overdue: true },
    ]);
    await seedCases(env.ownerDb, other, Array.from({ length: 4 }, () => ({ stato: 'open', overdue: true })));
    await seedOnboarding(env.ownerDb, tenant, [
      { stato: 'draft', weeksAgo: 0 }, { stato: 'in_review', weeksAgo: 0 }, { stato: 'in_review', weeksAgo: 0 },
      { stato: 'approved', weeksAgo: 2 }, { stato: 'rejected', weeksAgo: 12 },
    ]);
    await seedOnboarding(env.ownerDb, other, Array.from({ length: 3 }, () => ({ stato: 'in_review', weeksAgo: 0 })));
  });

  it('screening: matches per week stacked by state (zeros, not gaps) and per list by the list\'s name', async () => {
    const page = await viewer.get('/admin/screening', html);
    assert.equal(page.status, 200, page.text);

    const weekly = chartOf(page.text, 'grafico-corrispondenze-settimana');
    assert.equal(weekly.spec.kind, 'stacked-bar');
    assert.equal(weekly.spec.categories.length, 12);
    for (const c of weekly.spec.categories) assert.match(c, WEEK);
    assert.deepEqual(weekly.spec.series.map((s) => s.name), ['Aperta', 'Assegnata', 'Corrispondenza confermata', 'Falso positivo']);
    const byName = Object.fromEntries(weekly.spec.series.map((s) => [s.name, s.data]));
    const expect = (name: string, at: Record<number, number>) => assert.deepEqual(byName[name], Array.from({ length: 12 }, (_, i) => at[i] ?? 0), name);
    // This week is the last category; three weeks ago the ninth. The deleted match, the one 13 weeks ago and the other tenant's are not there.
    expect('Aperta', { 11: 2 });
    expect('Corrispondenza confermata', { 11: 1 });
    expect('Falso positivo', { 8: 1 });
    expect('Assegnata', { 8: 1 });
    assert.equal(weekly.rows.length, 12);
    assert.deepEqual(weekly.rows[11], [weekly.spec.categories[11], '2', '0', '1', '0', '3']);
    assert.deepEqual(weekly.rows[8], [weekly.spec.categories[8], '0', '1', '0', '1', '2']);
    assert.deepEqual(weekly.rows[0], [weekly.spec.categories[0], '0', '0', '0', '0', '0']);

    const lists = chartOf(page.text, 'grafico-corrispondenze-lista');
    const count = Object.fromEntries(lists.spec.categories.map((c, i) => [c, lists.spec.series[0]!.data[i]]));
    assert.equal(count['UE, sanzioni finanziarie (FSF)'], 3, 'the other tenant\'s five and the deleted match are not counted');
    assert.equal(count['OFAC SDN (USA), luglio 2021'], 1);
    assert.equal(count['ONU, Consiglio di sicurezza'], 1);
    assert.equal(count['lista</script><b>x'], 1, 'an unknown list keeps its id, and the JSON gives it back intact');
    assert.equal(lists.spec.categories[0], 'UE, sanzioni finanziarie (FSF)', 'the list with most matches first');
    assert.ok(!lists.spec.categories.some((c) => /^(eu_fsf|us_ofac_sdn_|un_sc_)/.test(c)), 'no list id where a name is known');
    assert.deepEqual(lists.rows[0], ['UE, sanzioni finanziarie (FSF)', '3']);

    // The data cannot end its script element; in the table it is escaped HTML.
    assert.ok(!page.text.includes('lista</script>'));
    assert.ok(page.text.includes('lista\\u003c/script\\u003e\\u003cb\\u003ex'));
    assert.ok(page.text.includes('<th scope="row">lista&lt;/script&gt;&lt;b&gt;x</th>'));
    // Without JavaScript the table is open and the drawing area hidden; the page loads the script, not inline code.
    assert.match(page.text, /<div class="chart-canvas" id="grafico-corrispondenze-settimana-grafico" role="img" hidden><\/div>/);
    assert.match(page.text, /<details class="chart-data mt-2" open>\s*<summary class="text-secondary">Dati del grafico<\/summary>/);
    assert.match(page.text, /<script src="\/static\/app\/js\/charts\.js" defer><\/script>/);
    assert.doesNotMatch(page.text, /<script>(?!<\/script>)/, 'no inline script');
  });

  it('onboarding: cases by state (every state, Italian labels) and new cases per week', async () => {
    const page = await viewer.get('/admin/onboarding/cases', html);
    assert.equal(page.status, 200, page.text);
    const byState = chartOf(page.text, 'grafico-pratiche-stato');
    assert.deepEqual(byState.spec.categories, ['Bozza', 'Inviata, firma in corso', 'In revisione', 'In attesa di seconda approvazione', 'Approvata', 'Respinta', 'Informazioni richieste', 'Cancellata', 'Scaduta']);
    assert.deepEqual(byState.spec.series[0]!.data, [1, 0, 2, 0, 1, 1, 0, 0, 0]);
    assert.deepEqual(byState.spec.tones.slice(0, 6), ['secondary', 'cyan', 'blue', 'orange', 'green', 'red'], 'bars in the colours of the state badges');
    assert.deepEqual(byState.rows[2], ['In revisione', '2']);
    assert.deepEqual(byState.rows[1], ['Inviata, firma in corso', '0']);

    const perWeek = chartOf(page.text, 'grafico-pratiche-settimana');
    assert.equal(perWeek.spec.kind, 'line');
    assert.equal(perWeek.spec.categories.length, 12);
    assert.deepEqual(perWeek.spec.series[0]!.data, [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3], 'the case 12 weeks ago is before the window; the other tenant\'s three are not counted');
    assert.equal(sum(perWeek.rows.map((r) => Number(r[1]))), 4);
  });

  it('cases: by state and open cases in time or overdue, above the unchanged table; htmx gets the table alone', async () => {
    const page = await viewer.get('/casi', html);
    assert.equal(page.status, 200, page.text);
    const byState = chartOf(page.text, 'grafico-casi-stato');
    assert.deepEqual(byState.spec.categories, ['Aperto', 'Escalato', 'In chiusura', 'Chiuso']);
    assert.deepEqual(byState.spec.series[0]!.data, [3, 1, 0, 2]);
    assert.deepEqual(byState.rows, [['Aperto', '3'], ['Escalato', '1'], ['In chiusura', '0'], ['Chiuso', '2']]);

    const sla = chartOf(page.text, 'grafico-casi-sla');
    assert.equal(sla.spec.kind, 'pie');
    assert.deepEqual(sla.spec.categories, ['In ritardo', 'Nei termini']);
    assert.deepEqual(sla.spec.series[0]!.data, [2, 2], 'closed cases and the other tenant\'s are not counted');
    assert.deepEqual(sla.rows, [['In ritardo', '2'], ['Nei termini', '2']]);
    assert.match(page.text, /id="casi-tabella"/, 'the table is still there');

    const fragment = await viewer.get('/casi?stato=open', { ...html, 'HX-Request': 'true' });
    assert.equal(fragment.status, 200);
    assert.doesNotMatch(fragment.text, /data-chart=/);
  });
});
