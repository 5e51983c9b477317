import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { syncTenant } from '../../src/domains/monitoring/sync/sync.run';
import { launchBrowser, screenshot, seriousA11yViolations } from '../helpers/browser';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { activateDraft, RULE_CONDITION, ruleBody, seedCustomers } from '../helpers/monitoring-fixture';

/**
 * The decision engine's page (docs/monitoring.md, "The engine's page"): its health, the sync per
 * kind and the dead letters for every staff member; the replay, the reconciliation and the pilot
 * for compliance officers and admins only, each with its outcome on the page (a 409 explained);
 * another tenant's dead letter is a 404.
 */
describe('the engine\'s page (/monitoraggio/motore)', function () {
  this.timeout(180_000);
  const BASE = '/monitoraggio/motore';
  let env: TestEnv;
  let tenant: string;
  let co: TestClient, admin: TestClient, viewer: TestClient, outsider: TestClient;
  let brokenVersion: string;
  let deadLetter: string;

  const html = async (c: TestClient, path: string, status = 200) => {
    const r = await c.get(path, { accept: 'text/html' });
    assert.equal(r.status, status, `${path}: ${r.status} ${r.text.slice(0, 400)}`);
    return r.text;
  };

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    await seedCustomers(env.ownerDb, tenant, 2, 1);
    [co, admin, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['admin'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'admin'] }).then((u) => env.login(u)),
    ]);
    // A version in force whose condition the engine does not accept: its sync is a dead letter.
    const bad = await co.post('/api/monitoring/rules', ruleBody('regola_rotta_pagina'));
    assert.equal(bad.status, 201, bad.text);
    brokenVersion = bad.body.bozza.id;
    await activateDraft(env, tenant, brokenVersion);
    await env.ownerDb('monitoring_regole_versioni').where({ id: brokenVersion }).update({ condizione: JSON.stringify({ campo: 'evento.campo_sconosciuto', op: 'eq', valore: 1 }) });
    const runs = await syncTenant(env.deps.db, tenant, 'manuale', 'test');
    deadLetter = runs.find((r) => r.tipo === 'regola')!.cod_sync;
  });

  it('shows a viewer the health, the workers, the sync per kind and the dead letters with their record and reason, without the actions', async () => {
    const page = await html(viewer, BASE);
    assert.match(page, /data-engine-health="(ok|degraded)"/);
    assert.match(page, /data-worker><td><code>motore /, 'the test stack serves the engine\'s queue');
    for (const tipo of ['cliente', 'regola', 'lista']) assert.match(page, new RegExp(`data-sync-kind="${tipo}"`));
    assert.match(page, /data-sync-kind="cliente">\s*<th scope="row">Clienti<\/th>\s*<td class="text-end">2<\/td>/, 'the two customers are in the copy');
    assert.match(page, new RegExp(`data-dead-letter="${deadLetter}"[\\s\\S]*data-dead-record="${brokenVersion}"><code>${brokenVersion}</code>: condizione: [^<]*campo_sconosciuto`));
    assert.doesNotMatch(page, /data-replay-form|data-reconcile-form|data-pilot-form/, 'a viewer reads, does not act');
    assert.match(page, /href="\/monitoraggio\/motore"/, 'the page is in the monitoring navigation');
    const refused = await viewer.submitForm(`${BASE}/riesegui/${deadLetter}`, {}, BASE);
    assert.equal(refused.status, 403);
  });

  it('replays a dead letter from the page (a second replay is a 409 explained); another tenant\'s is a 404', async () => {
    const page = await html(co, BASE);
    assert.match(page, new RegExp(`action="${BASE}/riesegui/${deadLetter}"`));
    assert.equal((await outsider.submitForm(`${BASE}/riesegui/${deadLetter}`, {}, BASE)).status, 404);
    assert.equal((await co.submitForm(`${BASE}/riesegui/SYNC-NON-ESISTE`, {}, BASE)).status, 404);

    // Still broken: the replay runs, the dead letter stays open and says why.
    const still = await co.submitForm(`${BASE}/riesegui/${deadLetter}`, {}, BASE);
    assert.equal(still.status, 200, still.text.slice(0, 400));
    assert.match(still.text, /data-replay-outcome="ritentata"[\s\S]*La dead letter resta aperta \(tentativi non riusciti: 1\)/);

    // Mended on the platform: the replay copies it and closes the dead letter.
    await env.ownerDb('monitoring_regole_versioni').where({ id: brokenVersion }).update({ condizione: JSON.stringify(RULE_CONDITION) });
    // The replay that still failed is no dead letter of its own: the one it replayed stays open, the only one.
    const failedReplay = still.text.match(/data-replay-outcome="ritentata"[^>]*>[\s\S]*?nuova sincronizzazione <code>([^<]+)<\/code>/)![1]!;
    assert.match(still.text, new RegExp(`data-dead-letter="${deadLetter}"`));
    assert.doesNotMatch(still.text, new RegExp(`data-dead-letter="${failedReplay}"`));
    const done = await admin.submitForm(`${BASE}/riesegui/${deadLetter}`, {}, BASE);
    assert.equal(done.status, 200, done.text.slice(0, 400));
    assert.match(done.text, /data-replay-outcome="completata"[\s\S]*La dead letter è chiusa/);
    assert.doesNotMatch(done.text, new RegExp(`data-dead-letter="${deadLetter}"`), 'the replayed dead letter left the list');

    const again = await co.submitForm(`${BASE}/riesegui/${deadLetter}`, {}, BASE);
    assert.equal(again.status, 409);
    assert.match(again.text, /data-replay-error="409"[\s\S]*non è da rieseguire \(stato: rieseguita\)[\s\S]*già stata rieseguita/);
  });

  it('reconciles the copy with the platform and names what differs; runs the pilot with each step\'s time', async () => {
    // A customer added on the platform and not yet synced: only in the platform.
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: 'C-NUOVO', tipo_soggetto: 'persona_fisica', denominazione: 'Cliente Nuovo', created_by: 'test' });
    const diff = await co.submitForm(`${BASE}/confronta`, {}, BASE);
    assert.equal(diff.status, 200, diff.text.slice(0, 400));
    assert.match(diff.text, /data-reconcile="diverso"/);
    assert.match(diff.text, /data-reconcile-kind="cliente" data-ok="false"[\s\S]*?1 solo nella piattaforma: <code>C-NUOVO<\/code>/);
    assert.equal((await viewer.submitForm(`${BASE}/confronta`, {}, BASE)).status, 403);

    const pilot = await co.submitForm(`${BASE}/pilota`, {}, BASE);
    assert.equal(pilot.status, 200, pilot.text.slice(0, 400));
    for (const passo of ['lettura_store', 'valutazione', 'scrittura_decisione', 'andata_ritorno_motore']) {
      assert.match(pilot.text, new RegExp(`data-pilot-step="${passo}"><td>[^<]+</td><td class="text-end">\\d`), passo);
    }
    assert.equal((await viewer.submitForm(`${BASE}/pilota`, {}, BASE)).status, 403);
  });

  describe('in Chromium (axe-core)', () => {
    let browser: Browser;
    before(async () => { browser = await launchBrowser(); });
    after(async () => { await browser?.close(); });

    it('has no serious or critical violations, with the reconciliation and the pilot shown', async () => {
      const ctx = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 900 } });
      await ctx.addCookies([{ name: 'cp_sid', value: co.cookie('cp_sid')!, url: env.baseUrl }]);
      const page = await ctx.newPage();
      await page.goto(`${env.baseUrl}${BASE}`);
      await screenshot(page, 'engine-page');
      assert.deepEqual(await seriousA11yViolations(page), [], 'the page');
      await page.getByRole('button', { name: 'Confronta' }).click();
      await page.waitForSelector('[data-reconcile]');
      // The form lands on its result (#confronto); the full-page screenshot is taken from the top, where the sticky sidebar is.
      await page.evaluate('window.scrollTo(0, 0)');
      await screenshot(page, 'engine-page-reconcile');
      assert.deepEqual(await seriousA11yViolations(page), [], 'with the reconciliation');
      await page.getByRole('button', { name: 'Prova di andata e ritorno' }).click();
      await page.waitForSelector('[data-pilot]');
      await page.evaluate('window.scrollTo(0, 0)');
      await screenshot(page, 'engine-page-pilot');
      assert.deepEqual(await seriousA11yViolations(page), [], 'with the pilot');
      await ctx.close();
    });
  });
});
