import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshot, seriousA11yViolations } from '../helpers/browser';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { caseInReview, type BuiltCase } from '../helpers/onboarding';

const BASE = '/admin/onboarding/cases';
const html = { accept: 'text/html' };

describe('onboarding admin review pages', function () {
  this.timeout(300_000);
  let env: TestEnv;
  let tenant: string;
  let analyst: TestClient;
  let co1: TestClient;
  let co2: TestClient;
  let viewer: TestClient;
  let c: BuiltCase;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    [analyst, co1, co2, viewer] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
    ]);
    c = await caseInReview(env, tenant, { denominazione: 'Officine Padane S.r.l.' });
  });

  /** Follows a post/redirect/get and returns the page the user lands on. */
  async function follow(client: TestClient, r: { status: number; headers: Headers; text: string }) {
    assert.equal(r.status, 302, r.text);
    return client.get(r.headers.get('location')!, html);
  }

  it('lists cases with the filter form, badges, pagination and an empty state; htmx gets the table only', async () => {
    const page = await viewer.get(BASE, html);
    assert.equal(page.status, 200);
    assert.match(page.text, /<h2 class="page-title">Pratiche di onboarding<\/h2>/);
    assert.match(page.text, /Officine Padane S\.r\.l\./);
    assert.match(page.text, new RegExp(`href="${BASE}/${c.caseId}"`));
    assert.match(page.text, /data-status="in_review">In revisione</);
    assert.match(page.text, /data-status="basso">Basso \(\d+\)</);
    assert.match(page.text, /<select class="form-select" id="f-rischio" name="rischio">/);
    assert.match(page.text, /<a class="nav-link active fw-bold" href="\/admin\/onboarding\/cases" aria-current="page">Onboarding<\/a>/, 'the area is in the staff navigation');

    const none = await viewer.get(`${BASE}?stato=rejected`, html);
    assert.match(none.text, /Nessuna pratica di onboarding trovata/);
    assert.match(none.text, /<option value="rejected" selected>Respinta<\/option>/, 'the filter keeps its value');
    const bad = await viewer.get(`${BASE}?from=ieri`, html);
    assert.equal(bad.status, 200);
    assert.match(bad.text, /id="f-from-err">Data non valida/);

    const fragment = await viewer.get(`${BASE}?q=Padane`, { ...html, 'HX-Request': 'true' });
    assert.doesNotMatch(fragment.text, /<html/);
    assert.match(fragment.text, /id="onboarding-tabella"/);
    assert.match(fragment.headers.get('vary') ?? '', /HX-Request/);
  });

  it('shows every part of the case; a viewer gets no forms, a reviewer gets the decisions the machine allows', async () => {
    const page = await viewer.get(`${BASE}/${c.caseId}`, html);
    assert.equal(page.status, 200);
    for (const heading of ['Azioni', 'Riepilogo', 'Dati del cliente', 'Titolari effettivi', 'Documenti', 'Adeguata verifica', 'Paesi', 'Wallet', 'Screening', 'Rischio', 'Travel rule', 'Firme', 'Cronologia', 'Stato del processo']) {
      assert.match(page.text, new RegExp(`<h3 class="card-title"[^>]*>${heading}</h3>`), heading);
    }
    assert.match(page.text, /Scopo del rapporto/);
    assert.match(page.text, /Investimento in cripto-attività/);
    assert.match(page.text, /Marco Verdi/);
    assert.match(page.text, /Germania/);
    assert.match(page.text, /Visura camerale/);
    assert.doesNotMatch(page.text, /\/download"/, 'a read-only user gets no document downloads');
    assert.match(page.text, /Riservato/);
    assert.match(page.text, /Dichiarazioni del cliente/);
    assert.match(page.text, /<svg/, 'the state diagram');
    assert.match(page.text, /data-workflow-id="onboarding:/);
    assert.match(page.text, /data-no-actions/);
    assert.doesNotMatch(page.text, /action="[^"]*\/approva"/);

    const mine = await analyst.get(`${BASE}/${c.caseId}`, html);
    assert.match(mine.text, new RegExp(`href="/api/v1/admin/onboarding/cases/${c.caseId}/documents/[0-9a-f-]+/download"`));
    for (const form of ['approva', 'respingi', 'richiedi-informazioni']) assert.match(mine.text, new RegExp(`action="${BASE}/${c.caseId}/${form}"`), form);
    assert.doesNotMatch(mine.text, /completa-approvazione/);
    assert.equal((await viewer.get(`${BASE}/00000000-0000-4000-8000-000000000000`, html)).status, 404);
  });

  it('keeps a form\'s input with the message next to the field, and explains a refused decision in Italian', async () => {
    const detail = `${BASE}/${c.caseId}`;
    let r = await analyst.submitForm(`${detail}/respingi`, { reason: '' }, detail);
    assert.equal(r.status, 422);
    assert.match(r.text, /aria-invalid="true" aria-describedby="f-reason-err"/);
    assert.match(r.text, /id="f-reason-err">Indica il motivo del rifiuto</);
    r = await analyst.submitForm(`${detail}/richiedi-informazioni`, { message: ' ' }, detail);
    assert.equal(r.status, 422);
    assert.match(r.text, /id="f-message-err">Scrivi quali informazioni servono al cliente</);
    r = await analyst.submitForm(`${detail}/approva`, { note: 'x'.repeat(2001) }, detail);
    assert.equal(r.status, 422);
    assert.match(r.text, /id="f-note-err">Massimo 2000 caratteri</);
    assert.match(r.text, /x{2001}<\/textarea>/, 'what was typed comes back');

    const asked = await follow(analyst, await analyst.submitForm(`${detail}/richiedi-informazioni`, { message: 'Serve lo statuto aggiornato' }, detail));
    assert.match(asked.text, /Richiesta inviata: il cliente riceve un nuovo link/);
    assert.match(asked.text, /data-status="info_requested"/);
    assert.match(asked.text, /Serve lo statuto aggiornato/);

    const refused = await follow(analyst, await analyst.submitForm(`${detail}/approva`, {}, detail));
    assert.match(refused.text, /class="alert alert-danger" role="alert">Questa azione non è consentita nello stato attuale della pratica\./);
  });

  it('runs the four-eyes approval from the page: the first approver is told someone else must confirm', async () => {
    const p = await caseInReview(env, tenant, { pepOwner: true });
    const detail = `${BASE}/${p.caseId}`;
    let page = await follow(co1, await co1.submitForm(`${detail}/approva`, { note: 'Carica pubblica verificata' }, detail));
    assert.match(page.text, /Prima approvazione registrata/);
    assert.match(page.text, /data-waiting-second/);
    page = await follow(co1, await co1.submitForm(`${detail}/completa-approvazione`, {}, detail));
    assert.match(page.text, /principio dei quattro occhi/);
    assert.match(page.text, /data-status="pending_second_approval"/);
    const other = await co2.get(detail, html);
    assert.match(other.text, new RegExp(`action="${detail}/completa-approvazione"`));
    page = await follow(co2, await co2.submitForm(`${detail}/completa-approvazione`, { note: 'Confermo' }, detail));
    assert.match(page.text, /Approvazione confermata: cliente e rapporto creati/);
    assert.match(page.text, /data-cod-anagrafe>/);
  });

  describe('accessibility (axe-core in Chromium)', () => {
    let browser: Browser;
    before(async () => { browser = await launchBrowser(); });
    after(async () => { await browser?.close(); });

    it('has no serious or critical violations on the list and on a case under review', async () => {
      const fresh = await caseInReview(env, tenant, {
        wallets: [{ rete: 'ETH', indirizzo: '0x52908400098527886E0F7030069857D2E4169EE7', tipo: 'custodial', vasp_nome: 'Exchange Europa S.p.A.', volume_annuo_eur: 8000 }],
      });
      const ctx = await browser.newContext({ locale: 'it-IT' });
      await ctx.addCookies([{ name: 'cp_sid', value: analyst.cookie('cp_sid')!, url: env.baseUrl }]);
      const page = await ctx.newPage();
      await page.goto(`${env.baseUrl}${BASE}/${fresh.caseId}`);
      assert.equal(await page.locator('h2.page-title').textContent(), (await env.ownerDb('onboarding_cases').where({ id: fresh.caseId }).first()).anagrafe.denominazione);
      await screenshot(page, 'admin-onboarding-detail');
      assert.deepEqual(await seriousA11yViolations(page), [], 'case detail');
      await page.goto(`${env.baseUrl}${BASE}`);
      await screenshot(page, 'admin-onboarding-list');
      assert.deepEqual(await seriousA11yViolations(page), [], 'case list');
      await ctx.close();
    });
  });
});
