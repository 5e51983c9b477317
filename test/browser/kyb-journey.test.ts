import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot, seriousA11yViolations, signInWithTotp } from '../helpers/browser';
import { getTestEnv, type TestEnv } from '../helpers/env';

/** The state section: the current state and the actions this user may take now. */
async function expectState(page: Page, state: string, actions: string[]) {
  const section = page.locator('details#processo');
  assert.equal(await section.locator('[data-current-state]').getAttribute('data-current-state'), state);
  assert.deepEqual((await section.locator('[data-possible-action]').evaluateAll((els) => els.map((e) => e.getAttribute('data-possible-action')))).sort(), [...actions].sort());
  assert.equal(await section.locator(`.state-diagram-scroll svg #state-${state}`).getAttribute('class'), 'node current');
}

async function noSeriousViolations(page: Page, what: string) {
  assert.deepEqual(await seriousA11yViolations(page), [], `${what} has no serious accessibility violation`);
}

/** Submits a form and waits for the page it leads to (a redirect or the page drawn again). */
async function submit(page: Page, button: ReturnType<Page['locator']>) {
  await Promise.all([page.waitForLoadState('load'), page.waitForNavigation(), button.click()]);
}

describe('browser: a KYB taken in hand, its profile completed, approved once every check is passed or waived', function () {
  this.timeout(300_000);
  let env: TestEnv;
  let browser: Browser;

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
  });
  after(async () => { await browser?.close(); });

  it('runs the journey in Chromium', async () => {
    const tenant = await env.createTenant();
    const [analyst, co] = await Promise.all([env.createUser({ tenant, roles: ['analyst'] }), env.createUser({ tenant, roles: ['co'] })]);
    await env.ownerDb('anagrafe').insert({
      cod_azienda: tenant, cod_anagrafe: 'ANA-KYB042', tipo_soggetto: 'societa', denominazione: 'Cartiera Valtellinese S.r.l.', nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test',
    });
    const api = await env.login(analyst);
    const opened = await api.post('/api/v1/kyb/verifiche', {
      cod_anagrafe: 'ANA-KYB042',
      dati_dichiarati: { denominazione: 'Cartiera Valtellinese S.r.l.', titolari: [{ nome: 'Elisa', cognome: 'Bertolini', codice_fiscale: 'BRTLSE75C41F712K', percentuale: 70 }] },
    });
    assert.equal(opened.status, 201, opened.text);
    const cod = opened.body.cod_verifica as string;

    // 1. The operator finds it in the KYB console, filtered to those waiting, and opens it.
    const ctxA = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 900 } });
    const page = await ctxA.newPage();
    await signInWithTotp(page, env.baseUrl, analyst);
    await page.goto(`${env.baseUrl}/admin/kyb`);
    await page.getByLabel('Stato', { exact: true }).selectOption('pending');
    await page.waitForURL(/stato=pending/);
    await page.locator(`tr[data-verifica="${cod}"]`).waitFor();
    await screenshot(page, 'kyb-01-elenco');
    await noSeriousViolations(page, 'the KYB list');
    await page.getByRole('link', { name: cod }).click();
    await page.waitForURL(new RegExp(`/admin/kyb/${cod}$`));
    await expectState(page, 'pending', ['start']);
    assert.equal(await page.locator('tr[data-check]').count(), 7, 'the seven standard checks');
    await screenshot(page, 'kyb-02-in-attesa');
    await noSeriousViolations(page, 'the pending KYB');

    // 2. She takes it in hand.
    await submit(page, page.locator('[data-action="start"]'));
    await expectState(page, 'in_progress', ['approve', 'reject']);
    assert.match(await page.locator('[data-approva-bloccata]').textContent() ?? '', /Mancano/);

    // 3. The company profile: a wrong ATECO code comes back next to its field, with what she typed.
    await page.locator('[data-profilo-form] summary').click();
    await page.getByLabel('Forma giuridica', { exact: true }).selectOption('srl');
    await page.getByLabel('Codice ATECO', { exact: true }).fill('1712');
    await page.getByLabel('Numero di iscrizione (REA)', { exact: true }).fill('SO-0054321');
    await page.getByLabel('Registro di iscrizione', { exact: true }).fill('Registro delle imprese di Sondrio');
    await page.getByLabel('Paese di costituzione', { exact: true }).selectOption('IT');
    await page.getByLabel('Data di costituzione', { exact: true }).fill('1965-04-12');
    await page.getByLabel('Indirizzo della sede legale', { exact: true }).fill('Via Stelvio 8');
    await page.getByLabel('CAP', { exact: true }).fill('23100');
    await page.getByLabel('Comune', { exact: true }).fill('Sondrio');
    await page.getByLabel('Provincia', { exact: true }).fill('SO');
    await page.getByLabel('Paese della sede', { exact: true }).selectOption('IT');
    await page.getByLabel('Capitale sociale (euro)', { exact: true }).fill('250000');
    await submit(page, page.locator('[data-action="profilo"]'));
    assert.match(await page.locator('#f-codice_ateco-err').textContent() ?? '', /Codice ATECO non valido/);
    assert.equal(await page.getByLabel('Indirizzo della sede legale', { exact: true }).inputValue(), 'Via Stelvio 8');
    await screenshot(page, 'kyb-03-profilo-errore');
    await noSeriousViolations(page, 'the profile form with an error');
    await page.getByLabel('Codice ATECO', { exact: true }).fill('17.12.00');
    await submit(page, page.locator('[data-action="profilo"]'));
    assert.match(await page.locator('[data-profilo]').textContent() ?? '', /17\.12\.00/);

    // 4. Approving now is refused, naming the checks still open.
    await submit(page, page.locator('[data-action="approve"]'));
    assert.match(await page.locator('[data-refusal]').textContent() ?? '', /CHK-\d+/);

    // 5. Six checks passed through their forms.
    const rows = await page.locator('tr[data-check]').evaluateAll((els) => els.map((e) => ({ cod: e.getAttribute('data-check')!, tipo: e.getAttribute('data-check-tipo')! })));
    for (const c of rows.filter((r) => r.tipo !== 'pep')) {
      const row = page.locator(`tr[data-check="${c.cod}"]`);
      await row.locator('[data-check-form] summary').click();
      await row.getByLabel('Superato', { exact: true }).check();
      await row.getByLabel('Nota (facoltativa)', { exact: true }).fill(`Controllo ${c.tipo} eseguito`);
      await submit(page, row.locator('[data-action="check"]'));
      assert.equal(await page.locator(`tr[data-check="${c.cod}"] [data-status]`).getAttribute('data-status'), 'passed', c.tipo);
    }
    await screenshot(page, 'kyb-04-controlli');

    // 6. The compliance officer waives the PEP check, with the reason.
    const ctxB = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 900 } });
    const officer = await ctxB.newPage();
    await signInWithTotp(officer, env.baseUrl, co);
    await officer.goto(`${env.baseUrl}/admin/kyb/${cod}`);
    const pep = officer.locator('tr[data-check-tipo="pep"]');
    await pep.locator('[data-waive-form] summary').click();
    await pep.getByLabel('Motivo della deroga', { exact: true }).fill('Nessun esponente politico tra soci e amministratori: verificato sulle visure');
    await submit(officer, pep.locator('[data-action="waive"]'));
    assert.equal(await officer.locator('tr[data-check-tipo="pep"] [data-status]').getAttribute('data-status'), 'waived');
    await ctxB.close();

    // 7. The operator approves: the verification is closed, the timeline tells the story.
    await page.reload();
    assert.equal(await page.locator('[data-approva-bloccata]').count(), 0);
    await submit(page, page.locator('[data-action="approve"]'));
    await expectState(page, 'approved', []);
    const story = await page.locator('[data-timeline]').textContent() ?? '';
    for (const line of ['Verifica presa in lavorazione', 'Profilo societario', 'Controllo KYB derogato', 'Verifica approvata']) assert.match(story, new RegExp(line));
    await screenshot(page, 'kyb-05-approvata');
    await noSeriousViolations(page, 'the approved KYB');
    await ctxA.close();
  });
});
