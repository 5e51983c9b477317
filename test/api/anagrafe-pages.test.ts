import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { withTenant } from '../../src/db/tenant';
import { createDocumento, createLegame, createRapporto, updateCustomer } from '../../src/domains/records';
import type { TestClient } from '../helpers/http-client';

/** The customer records pages without JavaScript: forms post, the server redirects or answers 422 with the form. */
describe('anagrafe pages', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let co: TestClient;
  let analyst: TestClient;
  let sos: TestClient;
  let viewer: TestClient;
  let other: TestClient;

  const html = { accept: 'text/html' };
  /** Fixtures through the records area's own commands (versions, audit), as its API writes them. */
  const records = <T>(fn: (trx: Knex.Transaction) => Promise<T>) => withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, fn);
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' });
  const person = (over: Record<string, string> = {}) => ({
    tipo_soggetto: 'persona_fisica', nome: 'Mario', cognome: 'Rossi', codice_fiscale: 'RSSMRA85T10A562S', data_nascita: '1985-12-10',
    luogo_nascita: 'Bologna', nazionalita: 'IT', paese_residenza: 'IT', 'indirizzo.via': 'Via Indipendenza 1', 'indirizzo.cap': '40121',
    'indirizzo.citta': 'Bologna', 'indirizzo.provincia': 'BO', 'indirizzo.paese': 'IT', email: 'mario.rossi@example.test', pep: 'false', ...over,
  });
  /** Creates a subject through the form and answers its code. */
  const create = async (client: TestClient, form: Record<string, string>) => {
    const r = await client.submitForm('/anagrafe/nuovo', form);
    assert.equal(r.status, 302, r.text.slice(0, 2000));
    const m = /^\/anagrafe\/(ANA-\d+)$/.exec(r.headers.get('location') ?? '');
    assert.ok(m, `redirected to the new record, not ${r.headers.get('location')}`);
    return m[1]!;
  };

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const otherTenant = await env.createTenant();
    [co, analyst, sos, viewer, other] = await Promise.all([
      env.login(await env.createUser({ tenant, roles: ['co'] })),
      env.login(await env.createUser({ tenant, roles: ['analyst'] })),
      env.login(await env.createUser({ tenant, roles: ['sos'] })),
      env.login(await env.createUser({ tenant, roles: ['viewer'] })),
      env.login(await env.createUser({ tenant: otherTenant, roles: ['co'] })),
    ]);
  });

  it('creates a subject through the form, keeps the input and shows the message next to the field on errors', async () => {
    const bad = await analyst.submitForm('/anagrafe/nuovo', person({ codice_fiscale: 'RSSMRA85T10A562X', email: 'non-una-mail' }));
    assert.equal(bad.status, 422);
    assert.match(bad.text, /id="f-codice_fiscale-err"[^>]*>[^<]*codice fiscale/i, 'the check character is verified, the message is next to the field');
    assert.match(bad.text, /value="RSSMRA85T10A562X"/, 'what was typed is kept');
    assert.match(bad.text, /value="Via Indipendenza 1"/, 'the address too');
    assert.match(bad.text, /id="riepilogo-errori"/, 'an error summary links to the fields');
    assert.equal(await env.ownerDb('anagrafe').where({ cod_azienda: tenant }).count({ n: '*' }).first().then((r) => Number(r!.n)), 0, 'nothing was written');

    const cod = await create(analyst, person());
    const detail = await analyst.get(`/anagrafe/${cod}`, html);
    assert.equal(detail.status, 200);
    assert.match(detail.text, /Soggetto registrato/);
    assert.match(detail.text, /RSSMRA85T10A562S/);
    assert.match(detail.text, /Via Indipendenza 1, 40121 Bologna \(BO\), Italia/);
    assert.match(detail.text, /data-versione="1"/, 'the first version is in the history');

    const list = await viewer.get('/anagrafe?q=Rossi', html);
    assert.equal(list.status, 200);
    assert.match(list.text, new RegExp(`href="/anagrafe/${cod}"`));
    assert.match(list.text, /<html/);
    const fragment = await viewer.get('/partials/anagrafe-table?q=Rossi', { ...html, 'hx-request': 'true' });
    assert.equal(fragment.status, 200);
    assert.doesNotMatch(fragment.text, /<html/, 'the fragment is the table alone');
    assert.match(fragment.text, /id="anagrafe-tabella"/);
    assert.equal(fragment.headers.get('hx-push-url'), '/anagrafe?q=Rossi&sort=-created_at', 'the history gets the page, not the fragment');
    const none = await viewer.get('/partials/anagrafe-table?q=Nessuno', html);
    assert.match(none.text, /Nessun soggetto trovato/);
  });

  it('edits with optimistic versions and shows who changed which field, and the record as it was on a date', async () => {
    const cod = await create(co, person({ nome: 'Giulia', cognome: 'Bianchi', codice_fiscale: 'BNCGLI90A41F205H', data_nascita: '1990-01-01' }));
    const form = await co.get(`/anagrafe/${cod}/modifica`, html);
    assert.equal(form.status, 200);
    assert.match(form.text, /name="versione" value="1"/);
    assert.match(form.text, /value="Giulia"/);

    assert.doesNotMatch(form.text, /name="partita_iva"/, 'a person has no partita IVA: the edit form leaves it out');
    const bad = await co.submitForm(`/anagrafe/${cod}/modifica`, person({ nome: 'Giulia', cognome: 'Bianchi', codice_fiscale: 'BNCGLI90A41F205H', email: 'giulia@', nazionalita: 'XX', stato: 'attivo', versione: '1' }));
    assert.equal(bad.status, 422);
    assert.match(bad.text, /id="f-email-err"/);
    assert.match(bad.text, /id="f-nazionalita-err"/, 'every message in one submission');
    assert.match(bad.text, /value="giulia@"/);
    const ok = await co.submitForm(`/anagrafe/${cod}/modifica`, person({ nome: 'Giulia', cognome: 'Bianchi', codice_fiscale: 'BNCGLI90A41F205H', telefono: '+39 051 123456', stato: 'attivo', versione: '1' }));
    assert.equal(ok.status, 302, ok.text.slice(0, 2000));
    const stale = await co.submitForm(`/anagrafe/${cod}/modifica`, person({ nome: 'Giulia', cognome: 'Bianchi', codice_fiscale: 'BNCGLI90A41F205H', telefono: '+39 051 999999', stato: 'attivo', versione: '1' }));
    assert.equal(stale.status, 422, 'a form of an older version is refused');
    assert.match(stale.text, /value="\+39 051 999999"/, 'and comes back with what was typed');

    // A new name re-screens the subject (the records area's update, as the API does it).
    const renamed = await co.submitForm(`/anagrafe/${cod}/modifica`, person({ nome: 'Giulia Maria', cognome: 'Bianchi', codice_fiscale: 'BNCGLI90A41F205H', telefono: '+39 051 123456', stato: 'attivo', versione: '2' }));
    assert.equal(renamed.status, 302, renamed.text.slice(0, 2000));
    const detail = await co.get(`/anagrafe/${cod}`, html);
    assert.match(detail.text, /Modifiche salvate\. Il soggetto è stato sottoposto di nuovo a screening/);
    assert.match(detail.text, /data-versione="3"[\s\S]*?data-campo="denominazione"[\s\S]*?Giulia Bianchi[\s\S]*?Giulia Maria Bianchi/, 'the name is composed again');
    assert.match(detail.text, /data-versione="2"/);
    assert.match(detail.text, /data-campo="telefono"[\s\S]*?Telefono[\s\S]*?—[\s\S]*?\+39 051 123456/, 'which field, old and new');
    const v2 = detail.text.slice(detail.text.indexOf('data-versione="2"'), detail.text.indexOf('data-versione="1"'));
    assert.ok(v2.length > 0);
    assert.doesNotMatch(v2, /data-campo="indirizzo"/, 'the address typed again as it was is no change');

    // Version 1 a week ago: three days ago the record had no phone; yesterday's date before that, nothing.
    await env.ownerDb('anagrafe_versioni').where({ cod_azienda: tenant, cod_anagrafe: cod, versione: 1 }).update({ changed_at: env.ownerDb.raw("now() - interval '7 days'") });
    const then = await co.get(`/anagrafe/${cod}?al=${day(-3)}`, html);
    assert.equal(then.status, 200);
    assert.match(then.text, /data-com-era/);
    assert.match(then.text, /versione 1/);
    assert.doesNotMatch(then.text.slice(then.text.indexOf('id="identita"'), then.text.indexOf('id="rapporti"')), /\+39 051 123456/, 'the phone came later');
    const before = await co.get(`/anagrafe/${cod}?al=${day(-30)}`, html);
    assert.match(before.text, /data-com-era-vuoto/);
    const badDate = await co.get(`/anagrafe/${cod}?al=ieri`, html);
    assert.equal(badDate.status, 200);
    assert.match(badDate.text, /id="f-al-err"/);
  });

  it('records the external code, sector, occupation, onboarding date and declared profile through the forms, in Italian', async () => {
    const form = await analyst.get('/anagrafe/nuovo', html);
    for (const name of ['codice_esterno', 'ateco', 'professione', 'data_onboarding', 'volume_mensile_atteso_eur', 'uso_contanti_atteso']) {
      assert.match(form.text, new RegExp(`name="${name}"`), name);
    }
    assert.match(form.text, /<option value="nessuno"[^>]*>Nessuno</);
    const giulia = { nome: 'Giulia', cognome: 'Verdi', codice_fiscale: 'VRDGLI80A41H501S', data_nascita: '1980-01-01' };
    const bad = await analyst.submitForm('/anagrafe/nuovo', person({
      ...giulia, codice_esterno: 'PAG 1', ateco: '4711', volume_mensile_atteso_eur: 'tanti', data_onboarding: day(3), uso_contanti_atteso: 'sempre',
    }));
    assert.equal(bad.status, 422);
    for (const field of ['codice_esterno', 'ateco', 'volume_mensile_atteso_eur', 'data_onboarding', 'uso_contanti_atteso']) {
      assert.match(bad.text, new RegExp(`id="f-${field}-err"`), `the message next to ${field}`);
    }
    assert.match(bad.text, /value="tanti"/, 'what was typed is kept');

    const cod = await create(analyst, person({
      ...giulia, codice_esterno: 'PAG-0001', ateco: '47.11.10', professione: 'Commerciante', data_onboarding: '2024-05-02',
      volume_mensile_atteso_eur: '2.500,50', uso_contanti_atteso: 'medio',
    }));
    const detail = await viewer.get(`/anagrafe/${cod}`, html);
    assert.match(detail.text, /data-codice-esterno>PAG-0001</);
    assert.match(detail.text, /data-data-onboarding>02\/05\/2024</);
    assert.match(detail.text, /data-ateco>47\.11\.10</);
    assert.match(detail.text, /data-professione>Commerciante</);
    assert.match(detail.text, /data-volume-atteso>2\.500,50\s€</);
    assert.match(detail.text, /data-contanti-atteso>Medio</);

    // Another person with the same external code: the message is next to the field.
    const dup = await analyst.submitForm('/anagrafe/nuovo', person({ nome: 'Francesca', cognome: 'Galli', codice_fiscale: 'GLLFNC85M52A662F', codice_esterno: 'PAG-0001' }));
    assert.equal(dup.status, 422);
    assert.match(dup.text, new RegExp(`id="f-codice_esterno-err"[^>]*>[^<]*già di un altro soggetto: ${cod}`));

    const edit = await analyst.get(`/anagrafe/${cod}/modifica`, html);
    assert.match(edit.text, /name="volume_mensile_atteso_eur" value="2500,50"/);
    assert.match(edit.text, /<option value="medio" selected>/);
    const saved = await analyst.submitForm(`/anagrafe/${cod}/modifica`, person({
      ...giulia, codice_esterno: 'PAG-0001', ateco: '47.11.10', professione: 'Commerciante', data_onboarding: '2024-05-02',
      volume_mensile_atteso_eur: '3000', uso_contanti_atteso: 'alto', stato: 'attivo', versione: '1',
    }));
    assert.equal(saved.status, 302, saved.text.slice(0, 2000));
    const history = await viewer.get(`/anagrafe/${cod}`, html);
    const v2 = history.text.slice(history.text.indexOf('data-versione="2"'), history.text.indexOf('data-versione="1"'));
    assert.match(v2, /data-campo="volume_mensile_atteso_eur"[\s\S]*?Volume mensile atteso[\s\S]*?2\.500,50\s€[\s\S]*?3\.000,00\s€/);
    assert.match(v2, /data-campo="uso_contanti_atteso"[\s\S]*?Uso del contante atteso[\s\S]*?Medio[\s\S]*?Alto/);
    assert.doesNotMatch(v2, /data-campo="(ateco|codice_esterno|data_onboarding|professione)"/, 'what was sent again as it was is no change');
    const v1 = history.text.slice(history.text.indexOf('data-versione="1"'));
    assert.match(v1, /data-campo="data_onboarding"[\s\S]*?Cliente dal[\s\S]*?02\/05\/2024/, 'the first version shows the date in Italian');
  });

  it('hides another tenant\'s record (404) and keeps readers away from the forms', async () => {
    const cod = await create(co, person({ nome: 'Luca', cognome: 'Verdi', codice_fiscale: 'VRDLCU75C15H501B', data_nascita: '1975-03-15' }));
    for (const path of [`/anagrafe/${cod}`, `/anagrafe/${cod}/modifica`, `/anagrafe/${cod}/dossier`]) {
      assert.equal((await other.get(path, html)).status, 404, path);
    }
    assert.equal((await other.submitForm(`/anagrafe/${cod}/elimina`, { motivo: 'Tentativo da un\'altra azienda' }, '/anagrafe')).status, 404);
    assert.equal((await other.submitForm(`/anagrafe/${cod}/modifica`, person({ versione: '1' }), '/anagrafe')).status, 404);
    assert.equal((await viewer.get('/anagrafe/nuovo', html)).status, 403);
    assert.equal((await analyst.submitForm(`/anagrafe/${cod}/elimina`, { motivo: 'Non è compito mio' }, '/anagrafe')).status, 403, 'deleting is for the officer');
    assert.equal(await env.ownerDb('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: cod }).first().then((r) => r.stato), 'attivo');
  });

  it('refuses to delete while relationships are open, asks for a reason, then deletes keeping the data', async () => {
    const cod = await create(co, person({ nome: 'Paola', cognome: 'Neri', codice_fiscale: 'NREPLA80M01L219K', data_nascita: '1980-08-01' }));
    const codRapporto = (await records((trx) => createRapporto(trx, tenant, 'test', { cod_anagrafe: cod, tipo: 'rapporto_continuativo', data_apertura: '2026-01-10' }))).cod_rapporto;

    const page = await co.get(`/anagrafe/${cod}`, html);
    assert.match(page.text, /data-elimina-bloccato/, 'the page says why it cannot be deleted');
    assert.match(page.text, new RegExp(`data-cod-rapporto="${codRapporto}"[\\s\\S]*?Intestatario`), 'with the relationship and the subject\'s role');
    const refused = await co.submitForm(`/anagrafe/${cod}/elimina`, { motivo: 'Cliente cessato' }, `/anagrafe/${cod}`);
    assert.equal(refused.status, 302);
    const after = await co.get(`/anagrafe/${cod}`, html);
    assert.match(after.text, /rapport/i);
    assert.match(after.text, /alert-danger/, 'the refusal is a danger message');
    assert.equal(await env.ownerDb('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: cod }).first().then((r) => r.stato), 'attivo');

    // Closing a relationship is the relationships' own page (not built here): the row is closed as that command will.
    await env.ownerDb('rapporti').where({ cod_azienda: tenant, cod_rapporto: codRapporto }).update({ stato: 'chiuso', data_chiusura: '2026-11-01' });
    await env.ownerDb('rapporti_soggetti').where({ cod_azienda: tenant, cod_rapporto: codRapporto }).update({ al: '2026-11-01' });
    const noReason = await co.submitForm(`/anagrafe/${cod}/elimina`, { motivo: '  ' }, `/anagrafe/${cod}`);
    assert.equal(noReason.status, 422);
    assert.match(noReason.text, /id="f-motivo-err"/, 'the message is next to the reason');
    assert.match(noReason.text, /<details class="confirm-action" id="conferma-elimina" open/, 'the panel stays open');

    const done = await co.submitForm(`/anagrafe/${cod}/elimina`, { motivo: 'Rapporti estinti, cliente cessato' }, `/anagrafe/${cod}`);
    assert.equal(done.status, 302);
    const row = await env.ownerDb('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: cod }).first();
    assert.equal(row.stato, 'eliminato');
    assert.equal(row.motivo_eliminazione, 'Rapporti estinti, cliente cessato');
    const deleted = await co.get(`/anagrafe/${cod}`, html);
    assert.equal(deleted.status, 200, 'the record stays readable');
    assert.match(deleted.text, /data-eliminato/);
    assert.doesNotMatch(deleted.text, /href="\/anagrafe\/[^"]+\/modifica"/, 'and is no longer editable');
  });

  it('shows the customer file, with the SOS section to the SOS delegate and the officer only', async () => {
    const company = await create(co, {
      tipo_soggetto: 'societa', denominazione: 'Fonderie Emiliane S.r.l.', codice_fiscale: '12345678903', partita_iva: '12345678903',
      nazionalita: 'IT', paese_residenza: 'IT', attivita: 'Fusione di metalli', pep: 'false',
    });
    const owner = await env.ownerDb('anagrafe').where({ cod_azienda: tenant, codice_fiscale: 'RSSMRA85T10A562S' }).first();
    const ownerCod = owner ? owner.cod_anagrafe as string : await create(co, person());
    await records(async (trx) => {
      await createLegame(trx, tenant, 'test', { cod_anagrafe_da: company, cod_anagrafe_a: ownerCod, tipo: 'titolare_effettivo', percentuale: 60, tipo_controllo: 'proprieta_diretta', dal: '2026-01-01' });
      await createDocumento(trx, tenant, 'test', { cod_anagrafe: ownerCod, tipo: 'carta_identita', numero: 'CA12345AB', autorita_rilascio: 'Comune di Bologna', data_rilascio: '2017-01-20', data_scadenza: day(20) });
      await createRapporto(trx, tenant, 'test', { cod_anagrafe: company, tipo: 'rapporto_continuativo', data_apertura: '2026-02-01', soggetti: [{ cod_anagrafe: ownerCod, ruolo: 'esecutore' }] });
    });
    const rapporto = (await env.ownerDb('rapporti').where({ cod_azienda: tenant, cod_anagrafe: company }).first()).cod_rapporto as string;
    const month = (back: number, d: number) => { const t = new Date(); t.setUTCDate(1); t.setUTCMonth(t.getUTCMonth() - back); t.setUTCDate(d); return t.toISOString().slice(0, 10); };
    const moved = await co.post('/api/movimenti', { movimenti: [
      { cod_rapporto: rapporto, data_operazione: month(0, 2), importo: 12500.5, segno: 'entrata', causale: 'Incasso fattura 118', chiave_esterna: 'm-1' },
      { cod_rapporto: rapporto, data_operazione: month(1, 3), importo: 4000, segno: 'uscita', contanti: true, causale: 'Prelievo', chiave_esterna: 'm-2' },
    ] });
    assert.equal(moved.status, 201, moved.text);
    const cdd = await analyst.post(`/api/cdd/initiate/${company}`, { motivo: 'manuale' });
    assert.equal(cdd.status, 201, cdd.text);
    const asAnalyst = await analyst.get(`/anagrafe/${company}/dossier`, html);
    assert.match(asAnalyst.text, new RegExp(`data-cdd[\\s\\S]*?href="/cdd/${cdd.body.id}">${cdd.body.cod_pratica}<`), 'the CDD task is in the history');
    assert.match(asAnalyst.text, new RegExp(`data-processi[\\s\\S]*?data-workflow-id="cdd-task:${tenant}:${cdd.body.id}"`), 'and its workflow links to the Temporal UI');
    assert.equal(asAnalyst.status, 200);
    assert.match(asAnalyst.text, /<svg/, 'the graph is drawn');
    assert.match(asAnalyst.text, /data-titolari[\s\S]*?Mario Rossi/, 'the beneficial owner is listed');
    assert.match(asAnalyst.text, /Titolare effettivo 60%/, 'and drawn with the share');
    assert.doesNotMatch(asAnalyst.text, /data-sos|Segnalazioni di operazioni sospette/, 'tipping-off: an analyst does not learn of SOS');
    assert.doesNotMatch((await viewer.get(`/anagrafe/${company}/dossier`, html)).text, /data-sos/);
    for (const client of [co, sos]) {
      const page = await client.get(`/anagrafe/${company}/dossier`, html);
      assert.equal(page.status, 200);
      assert.match(page.text, /data-sos/);
    }
    assert.match(asAnalyst.text, /id="grafico-movimenti-mese"/, 'the monthly volumes chart');
    assert.match(asAnalyst.text, /data-movimenti[\s\S]*?12\.500,50/, 'the latest movements, amounts in Italian');
    assert.match(asAnalyst.text, new RegExp(`data-cod-rapporto="${rapporto}"`));
    const ownerFile = await analyst.get(`/anagrafe/${ownerCod}/dossier`, html);
    assert.match(ownerFile.text, new RegExp(`href="/anagrafe/${company}"`), 'the owner\'s file links back to the company');
    assert.match(ownerFile.text, /data-in-scadenza>Scade tra 20 giorni/, 'the identity document expires soon');
    assert.match(ownerFile.text, /Esecutore/, 'the owner is the executor of the company\'s relationship');
    assert.match(asAnalyst.text, new RegExp(`data-cod-rapporto="${rapporto}"[\\s\\S]*?Mario Rossi</a> <span class="text-secondary small">\\(esecutore\\)`), 'the other parties of a relationship with their role');
  });

  it('shows dates and words in Italian on every anagrafe page, never ISO dates or identifiers', async () => {
    const visible = (html: string) => html.replace(/<(script|style|template|pre|code|textarea|svg)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ');
    const RAW = /\b(\d{4}-\d{2}-\d{2}|persona_fisica|ditta_individuale|medio_alto|rapporto_continuativo|titolare_effettivo|proprieta_diretta|carta_identita|legale_rappresentante)\b/;
    const company = (await env.ownerDb('anagrafe').where({ cod_azienda: tenant, partita_iva: '12345678903' }).first()).cod_anagrafe as string;
    const person = (await env.ownerDb('anagrafe').where({ cod_azienda: tenant, codice_fiscale: 'RSSMRA85T10A562S' }).first()).cod_anagrafe as string;
    const pages = ['/anagrafe', '/anagrafe/nuovo', `/anagrafe/${company}`, `/anagrafe/${company}/modifica`, `/anagrafe/${company}/dossier`, `/anagrafe/${person}/dossier`, `/anagrafe/${person}?al=${day(0)}`];
    for (const path of pages) {
      const r = await co.get(path, html);
      assert.equal(r.status, 200, path);
      assert.doesNotMatch(visible(r.text), RAW, path);
    }
  });

  it('counts on the home what the list shows: high-risk customers, PEPs, documents expiring soon', async () => {
    const company = (await env.ownerDb('anagrafe').where({ cod_azienda: tenant, partita_iva: '12345678903' }).first()).cod_anagrafe as string;
    await records((trx) => updateCustomer(trx, tenant, 'test', company, { classe_rischio: 'alto' }));
    const home = await co.get('/', html);
    const countOf = (label: string) => {
      const card = home.text.split('data-home-tile="records:').slice(1).find((c) => c.includes(`>${label}<`) || c.includes(`${label}\n`));
      assert.ok(card, `a tile "${label}"`);
      return Number(/data-count="(\d+)"/.exec(card)![1]);
    };
    const rows = async (path: string) => (await co.get(path, { ...html, 'hx-request': 'true' })).text.split('data-cod-anagrafe="').length - 1;
    assert.equal(countOf('Clienti ad alto rischio'), 1);
    assert.equal(await rows('/anagrafe?classe_rischio=alto&stato=attivo'), 1, 'the tile\'s link lists the same');
    assert.equal(countOf('Persone politicamente esposte'), await rows('/anagrafe?pep=true&stato=attivo'));
    assert.equal(countOf('Documenti in scadenza entro 60 giorni'), 1, 'the identity card expiring in 20 days');
    assert.match(home.text, /href="\/anagrafe\?classe_rischio=alto&amp;stato=attivo"/);
  });
});
