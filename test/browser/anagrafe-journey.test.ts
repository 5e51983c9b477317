import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { withTenant } from '../../src/db/tenant';
import { createCustomer, createDocumento, createLegame, createRapporto } from '../../src/domains/records';
import { launchBrowser, screenshot, seriousA11yViolations, signInWithTotp } from '../helpers/browser';

/**
 * A compliance officer registers a customer, corrects it, reads the history of the change and
 * opens the customer file, in Chromium at 1440×900 (screenshots: test-artifacts/screenshots/anagrafe-*.png).
 */
describe('browser: create a customer, edit it, read its history, open its file', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let browser: Browser;

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
  });
  after(async () => { await browser?.close(); });

  it('walks the customer records journey', async () => {
    const tenant = await env.createTenant();
    const co = await env.createUser({ tenant, roles: ['co'] });
    const ctx = await browser.newContext({ acceptDownloads: true, locale: 'it-IT', timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    await signInWithTotp(page, env.baseUrl, co);

    // 1. The navigation leads to the list; the form shows its messages next to the fields.
    await page.goto(`${env.baseUrl}/`);
    await page.getByRole('link', { name: 'Anagrafe', exact: true }).click();
    await page.waitForURL(/\/anagrafe$/);
    await page.getByRole('link', { name: 'Nuovo soggetto' }).click();
    await page.waitForURL(/\/anagrafe\/nuovo$/);
    await page.getByLabel('Tipo di soggetto').selectOption('societa');
    await page.getByLabel('Denominazione o ragione sociale').fill('Officine Meccaniche Padane S.p.A.');
    await page.getByLabel('Codice fiscale').fill('02112345670');
    await page.getByLabel('Partita IVA').fill('02112345679');
    await page.getByLabel('Nazionalità (o paese di costituzione)').selectOption('IT');
    await page.getByLabel('Paese di residenza (o della sede)').selectOption('IT');
    await page.getByLabel('Via e numero civico').fill('Via Emilia Est 12');
    await page.getByLabel('CAP').fill('41121');
    await page.getByLabel('Città').fill('Modena');
    await page.getByLabel('Attività svolta').fill('Costruzione di macchine utensili');
    // What monitoring compares the movements with: the sector and the declared profile.
    await page.getByLabel('Codice ATECO').fill('28.41.00');
    await page.getByLabel('Volume mensile atteso (euro)').fill('250.000,00');
    await page.getByLabel('Uso del contante atteso').selectOption('nessuno');
    await page.locator('#f-pep-no').check();
    await page.getByLabel('Classe di rischio').selectOption('medio');
    await page.getByRole('button', { name: 'Registra il soggetto' }).click();
    await page.locator('#f-codice_fiscale-err').waitFor();
    assert.equal(await page.getByLabel('Codice fiscale').inputValue(), '02112345670', 'what was typed is kept');
    await toTop(page);
    await screenshot(page, 'anagrafe-01-errore');
    assert.deepEqual(await seriousA11yViolations(page), []);

    await page.getByLabel('Codice fiscale').fill('02112345679');
    await page.getByRole('button', { name: 'Registra il soggetto' }).click();
    await page.waitForURL(/\/anagrafe\/ANA-\d+$/);
    const cod = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByText('Soggetto registrato').waitFor();
    assert.match(await page.locator('[data-volume-atteso]').innerText(), /250\.000,00\s€/);
    assert.equal(await page.locator('[data-contanti-atteso]').innerText(), 'Nessuno');
    await screenshot(page, 'anagrafe-02-scheda');
    assert.deepEqual(await seriousA11yViolations(page), []);

    // 2. The edit: a new version that says which field changed, from what to what.
    await page.getByRole('link', { name: 'Modifica' }).click();
    await page.waitForURL(new RegExp(`/anagrafe/${cod}/modifica$`));
    await page.getByLabel('Classe di rischio').selectOption('alto');
    await page.getByLabel('Telefono').fill('+39 059 555 1234');
    await page.getByLabel('Uso del contante atteso').selectOption('basso');
    assert.equal(await page.getByLabel('Nome', { exact: true }).count(), 0, 'a company\'s edit form has no first name');
    await toTop(page);
    await screenshot(page, 'anagrafe-03-modifica');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await page.getByRole('button', { name: 'Salva le modifiche' }).click();
    await page.waitForURL(new RegExp(`/anagrafe/${cod}$`));
    const v2 = page.locator('[data-versione="2"]');
    await v2.waitFor();
    assert.match(await v2.locator('[data-campo="classe_rischio"]').innerText(), /Classe di rischio\s+Medio\s+→\s*Alto/);
    assert.match(await v2.innerText(), /Modifica/);
    assert.match(await v2.locator('[data-campo="uso_contanti_atteso"]').innerText(), /Uso del contante atteso\s+Nessuno\s+→\s*Basso/);
    await screenshot(page, 'anagrafe-04-cronologia');

    // 3. The file: a beneficial owner drawn in the graph, the relationship and its movements, the risk history.
    const owner = await ownerOf(env, tenant, cod);
    const client = await env.login(co);
    const month = (back: number, d: number) => { const t = new Date(); t.setUTCDate(1); t.setUTCMonth(t.getUTCMonth() - back); t.setUTCDate(d); return t.toISOString().slice(0, 10); };
    const moved = await client.post('/api/movimenti', { movimenti: [0, 1, 2, 3, 4, 5].flatMap((back) => [
      { cod_rapporto: owner.rapporto, data_operazione: month(back, 5), importo: 20000 + back * 1500, segno: 'entrata', causale: 'Incasso fatture', chiave_esterna: `e-${back}`, ora_operazione: '10:30' },
      { cod_rapporto: owner.rapporto, data_operazione: month(back, 12), importo: 15000 + back * 900, segno: 'uscita', causale: 'Pagamento fornitori', chiave_esterna: `u-${back}` },
    ]) });
    assert.equal(moved.status, 201, moved.text);
    await page.getByRole('link', { name: 'Fascicolo del cliente' }).click();
    await page.waitForURL(new RegExp(`/anagrafe/${cod}/dossier$`));
    await page.locator('[data-grafo] svg').waitFor();
    assert.match(await page.locator('[data-grafo] svg').innerHTML(), new RegExp(owner.name));
    assert.equal(await page.locator('[data-storico-rischio] tbody tr').count(), 2, 'created medium, then high');
    await page.locator('section#movimenti').waitFor();
    await page.locator('figure#grafico-movimenti-mese[data-chart-ready]').waitFor();
    assert.match(await page.locator('[data-movimenti] [data-ora]').first().innerText(), /^10:30$/, 'the time of day in the latest movements');
    await screenshot(page, 'anagrafe-05-fascicolo');
    assert.deepEqual(await seriousA11yViolations(page), []);

    // 4. The list, filtered in place by htmx: the table alone is swapped, the address is the page's.
    await page.goto(`${env.baseUrl}/anagrafe`);
    await page.getByLabel('Classe di rischio').selectOption('alto');
    await page.waitForURL(/\/anagrafe\?.*classe_rischio=alto/);
    assert.equal(await page.locator('#anagrafe-tabella tbody tr').count(), 1);
    assert.match(await page.locator('#anagrafe-tabella tbody tr').innerText(), /Officine Meccaniche Padane/);
    await screenshot(page, 'anagrafe-06-elenco');
    assert.deepEqual(await seriousA11yViolations(page), []);

    // 5. The filtered list exported to Excel: the file downloaded and read back holds the rows on screen.
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="xlsx"]').click()]);
    assert.match(download.suggestedFilename(), /\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await download.path())!);
    const sheet = book.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    assert.ok(header.includes('Denominazione') && header.includes('Classe di rischio'), `Italian headers: ${header.join(', ')}`);
    assert.equal(sheet.actualRowCount, 2, 'the header and the one customer of class alto');
    const row = (sheet.getRow(2).values as unknown[]).slice(1);
    assert.ok(row.some((v) => String(v).startsWith('Officine Meccaniche Padane')), `row: ${row.join(', ')}`);
    assert.ok(row.includes('No'), 'PEP as the page says it');
    assert.ok(row.includes('Alto'), 'the class as the page names it');
    await ctx.close();
  });
});

/** Back to the top before a full-page screenshot: a filled field scrolled the page, and the navigation would be drawn mid-page. */
async function toTop(page: Page): Promise<void> {
  // Clicking the title scrolls it into view (it is at the top) and takes the focus off the field.
  await page.locator('h2.page-title').click();
}

/** A beneficial owner of the company, a relationship she is the executor of, and her identity card, through the records commands. */
async function ownerOf(env: TestEnv, tenant: string, company: string): Promise<{ name: string; rapporto: string }> {
  return withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, async (trx) => {
    const owner = await createCustomer(trx, tenant, 'test', {
      tipo_soggetto: 'persona_fisica', nome: 'Anna', cognome: 'Ferrari', codice_fiscale: 'FRRNNA70A41F257V', data_nascita: '1970-01-01',
      nazionalita: 'IT', paese_residenza: 'IT', ruolo: 'titolare_effettivo',
    });
    await createLegame(trx, tenant, 'test', {
      cod_anagrafe_da: company, cod_anagrafe_a: owner.cod_anagrafe, tipo: 'titolare_effettivo', percentuale: 75, tipo_controllo: 'proprieta_diretta', dal: '2026-01-01',
    });
    await createDocumento(trx, tenant, 'test', { cod_anagrafe: owner.cod_anagrafe, tipo: 'carta_identita', numero: 'CA98765ZZ', autorita_rilascio: 'Comune di Modena', data_rilascio: '2019-03-01', data_scadenza: '2029-03-01' });
    const rapporto = await createRapporto(trx, tenant, 'test', {
      cod_anagrafe: company, tipo: 'rapporto_continuativo', data_apertura: '2025-09-01', scopo: 'Conto corrente aziendale', soggetti: [{ cod_anagrafe: owner.cod_anagrafe, ruolo: 'esecutore' }],
    });
    return { name: 'Anna Ferrari', rapporto: rapporto.cod_rapporto };
  });
}
