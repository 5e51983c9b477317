import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyAuditChain } from '../../src/domains/audit/audit.chain';
import { withTenant } from '../../src/db/tenant';
import { createOrMatchCustomer } from '../../src/domains/records';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

// Real-shaped identifiers: check characters computed by the rule (test/unit/records-tax-id.test.ts).
const CF_MARIO = 'RSSMRA85T10A562S';
const CF_GIULIA = 'VRDGLI80A41H501S';
const CF_OMOCODE = 'RSSMRA85T10A56NH';
const PIVA_ALFA = '06363391001';
const PIVA_BETA = '00743110157';

const SHARED = join(process.cwd(), '..', 'shared', 'data', 'sanctions');

describe('records API: customers, relationships, links, owners, documents', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let analyst: TestClient, co: TestClient, viewer: TestClient, outsider: TestClient;
  let dataDir: string;
  const previousDir = process.env.SANCTIONS_DATA_DIR;

  before(async () => {
    env = await getTestEnv();
    // The UN list from ../shared/data, for the re-screen on a change of name.
    dataDir = mkdtempSync(join(tmpdir(), 'cp-records-sanctions-'));
    cpSync(join(SHARED, 'un'), join(dataDir, 'un'), { recursive: true });
    process.env.SANCTIONS_DATA_DIR = dataDir;
    tenant = await env.createTenant();
    other = await env.createTenant();
    [analyst, co, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'analyst'] }).then((u) => env.login(u)),
    ]);
  });

  after(() => {
    if (previousDir === undefined) delete process.env.SANCTIONS_DATA_DIR; else process.env.SANCTIONS_DATA_DIR = previousDir;
    rmSync(dataDir, { recursive: true, force: true });
  });

  const person = (over: Record<string, unknown> = {}) => ({
    tipo_soggetto: 'persona_fisica', nome: 'Mario', cognome: 'Rossi', codice_fiscale: CF_MARIO, data_nascita: '1985-12-10',
    luogo_nascita: 'Pisa', nazionalita: 'IT', paese_residenza: 'IT', email: 'mario.rossi@example.test', ...over,
  });
  const company = (over: Record<string, unknown> = {}) => ({
    tipo_soggetto: 'societa', denominazione: 'Alfa Digitale S.r.l.', codice_fiscale: PIVA_ALFA, partita_iva: PIVA_ALFA, paese_residenza: 'IT',
    nazionalita: 'IT', ...over,
  });
  async function create(body: Record<string, unknown>, client = analyst): Promise<string> {
    const r = await client.post('/api/anagrafe', body);
    assert.equal(r.status, 201, r.text);
    return r.body.cod_anagrafe as string;
  }
  const problemPaths = (r: { body: { errors?: { path: string }[] } }) => (r.body.errors ?? []).map((e) => e.path);

  let mario: string, alfa: string, giulia: string;

  it('creates subjects (201, version 1, Location) and refuses invalid tax ids with a 422 naming the field', async () => {
    const r = await analyst.post('/api/anagrafe', person({ codice_fiscale: ' rssmra85t10a562s ' }));
    assert.equal(r.status, 201, r.text);
    mario = r.body.cod_anagrafe;
    assert.match(mario, /^ANA-\d{6}$/);
    assert.equal(r.headers.get('location'), `/api/anagrafe/${mario}`);
    assert.equal(r.body.codice_fiscale, CF_MARIO, 'stored normalised');
    assert.equal(r.body.chiave_fiscale, `CF:${CF_MARIO}`);
    assert.equal(r.body.denominazione, 'Mario Rossi');
    assert.equal(r.body.versione, 1);
    assert.equal(r.body.data_nascita, '1985-12-10');
    alfa = await create(company());
    giulia = await create(person({ nome: 'Giulia', cognome: 'Verdi', codice_fiscale: CF_GIULIA, data_nascita: '1980-01-01', email: undefined }));

    const badCf = await analyst.post('/api/anagrafe', person({ codice_fiscale: 'RSSMRA85T10A562T' }));
    assert.equal(badCf.status, 422);
    assert.deepEqual(problemPaths(badCf), ['codice_fiscale']);
    assert.match(badCf.body.errors[0].message, /Codice fiscale non valido/);
    const badPiva = await analyst.post('/api/anagrafe', company({ codice_fiscale: undefined, partita_iva: '06363391002' }));
    assert.equal(badPiva.status, 422);
    assert.deepEqual(problemPaths(badPiva), ['partita_iva']);
    assert.match(badPiva.body.errors[0].message, /Partita IVA non valida/);
    const missing = await analyst.post('/api/anagrafe', { tipo_soggetto: 'societa' });
    assert.equal(missing.status, 422);
    assert.ok(problemPaths(missing).includes('denominazione'));
    const badType = await analyst.post('/api/anagrafe', { ...person(), tipo_soggetto: 'trust' });
    assert.deepEqual([badType.status, problemPaths(badType)], [422, ['tipo_soggetto']]);
    const badDate = await analyst.post('/api/anagrafe', person({ codice_fiscale: undefined, data_nascita: '2999-01-01' }));
    assert.deepEqual([badDate.status, problemPaths(badDate)], [422, ['data_nascita']]);
    const badCountry = await analyst.post('/api/anagrafe', person({ codice_fiscale: undefined, nazionalita: 'XX' }));
    assert.deepEqual([badCountry.status, problemPaths(badCountry)], [422, ['nazionalita']]);
    const unknownField = await analyst.post('/api/anagrafe', person({ codice_fiscale: undefined, colore: 'blu' }));
    assert.equal(unknownField.status, 422);

    assert.equal((await viewer.post('/api/anagrafe', person({ codice_fiscale: undefined }))).status, 403, 'a viewer reads only');
  });

  it('deduplicates on the tax id: one record per person, 409 naming the existing code', async () => {
    const again = await co.post('/api/anagrafe', person({ nome: 'Mario Antonio', codice_fiscale: 'RSS MRA 85T10 A562S' }));
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.code, 'DUPLICATE_TAX_ID');
    assert.equal(again.body.cod_anagrafe, mario);
    const sameCompany = await co.post('/api/anagrafe', company({ denominazione: 'Alfa Digitale', codice_fiscale: undefined, partita_iva: `IT${PIVA_ALFA}` }));
    assert.deepEqual([sameCompany.status, sameCompany.body.cod_anagrafe], [409, alfa]);
    // The omocode is another person: recorded apart.
    const omocode = await create(person({ codice_fiscale: CF_OMOCODE }));
    assert.notEqual(omocode, mario);
    // Another tenant may record the same person: tenants never share records.
    assert.equal((await outsider.post('/api/anagrafe', person())).status, 201);

    // The command other areas call (onboarding, imports): the same person is matched, not created.
    const fields = { tipo_soggetto: 'persona_fisica' as const, nome: 'Mario', cognome: 'Rossi', codice_fiscale: CF_MARIO.toLowerCase() };
    const matched = await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => createOrMatchCustomer(trx, tenant, 'test', fields));
    assert.deepEqual(matched, { codAnagrafe: mario, created: false });
    const beta = { tipo_soggetto: 'societa' as const, denominazione: 'Beta S.p.A.', partita_iva: PIVA_BETA };
    const first = await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => createOrMatchCustomer(trx, tenant, 'test', beta));
    const second = await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => createOrMatchCustomer(trx, tenant, 'test', beta));
    assert.equal(first.created, true);
    assert.deepEqual(second, { codAnagrafe: first.codAnagrafe, created: false });
  });

  it('lists with filters, text search by name or code, cursor pages; another tenant\'s records are not listed', async () => {
    const all = await viewer.get('/api/anagrafe?limit=200');
    assert.equal(all.status, 200, all.text);
    assert.ok(all.body.items.some((i: { cod_anagrafe: string }) => i.cod_anagrafe === mario));
    assert.equal(all.body.items.length, all.body.total);
    const companies = await viewer.get('/api/anagrafe?tipo=societa');
    assert.ok(companies.body.items.length >= 2 && companies.body.items.every((i: { tipo_soggetto: string }) => i.tipo_soggetto === 'societa'));
    const byCode = await viewer.get(`/api/anagrafe?q=${CF_MARIO.toLowerCase()}`);
    assert.deepEqual(byCode.body.items.map((i: { cod_anagrafe: string }) => i.cod_anagrafe), [mario]);
    const byName = await viewer.get('/api/anagrafe?q=verdi');
    assert.deepEqual(byName.body.items.map((i: { cod_anagrafe: string }) => i.cod_anagrafe), [giulia]);
    const byPiva = await viewer.get(`/api/anagrafe?q=${PIVA_ALFA}`);
    assert.deepEqual(byPiva.body.items.map((i: { cod_anagrafe: string }) => i.cod_anagrafe), [alfa]);
    const italians = await viewer.get('/api/anagrafe?paese=it&pep=false&stato=attivo&sort=denominazione');
    assert.equal(italians.status, 200, italians.text);
    const names = italians.body.items.map((i: { denominazione: string }) => i.denominazione);
    assert.deepEqual(names, [...names].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));

    const page1 = await viewer.get('/api/anagrafe?limit=2&sort=cod_anagrafe');
    assert.equal(page1.body.items.length, 2);
    const page2 = await viewer.get(`/api/anagrafe?limit=2&sort=cod_anagrafe&cursor=${page1.body.next_cursor}`);
    assert.equal(page2.status, 200);
    assert.ok(page2.body.items[0].cod_anagrafe > page1.body.items[1].cod_anagrafe);

    for (const q of ['classe_rischio=altissimo', 'tipo=trust', 'pep=forse', 'paese=ZZ', 'sort=codice_fiscale', 'cursor=nonsense']) {
      const bad = await viewer.get(`/api/anagrafe?${q}`);
      assert.equal(bad.status, 422, `${q}: ${bad.text}`);
    }
    const foreign = await outsider.get('/api/anagrafe?limit=200');
    assert.ok(!foreign.body.items.some((i: { cod_anagrafe: string; denominazione: string }) => i.denominazione === 'Alfa Digitale S.r.l.'));
  });

  it('opens relationships with roles; the subjects must be the tenant\'s and the dates coherent', async () => {
    const r = await analyst.post('/api/rapporti', {
      cod_anagrafe: alfa, tipo: 'rapporto_continuativo', data_apertura: '2026-01-15', scopo: 'Conto di pagamento',
      soggetti: [{ cod_anagrafe: mario, ruolo: 'esecutore' }, { cod_anagrafe: giulia, ruolo: 'delegato' }],
    });
    assert.equal(r.status, 201, r.text);
    assert.match(r.body.cod_rapporto, /^RAP-\d{6}$/);
    assert.deepEqual(r.body.ruoli.map((x: { cod_anagrafe: string; ruolo: string }) => [x.cod_anagrafe, x.ruolo]).sort(),
      [[alfa, 'intestatario'], [giulia, 'delegato'], [mario, 'esecutore']].sort());

    const byRole = await viewer.get(`/api/rapporti?cod_anagrafe=${mario}`);
    assert.deepEqual(byRole.body.items.map((x: { cod_rapporto: string }) => x.cod_rapporto), [r.body.cod_rapporto]);
    assert.equal(byRole.body.items[0].data_apertura, '2026-01-15');

    const foreignSubject = (await outsider.get('/api/anagrafe?limit=1')).body.items[0].cod_anagrafe as string;
    const cross = await analyst.post('/api/rapporti', { cod_anagrafe: alfa, tipo: 'rapporto_continuativo', soggetti: [{ cod_anagrafe: `${foreignSubject}-X`, ruolo: 'cointestatario' }] });
    assert.deepEqual([cross.status, problemPaths(cross)], [422, ['soggetti.0.cod_anagrafe']]);
    const badDates = await analyst.post('/api/rapporti', { cod_anagrafe: alfa, tipo: 'x', data_apertura: '2026-02-01', data_chiusura: '2026-01-01', stato: 'chiuso' });
    assert.deepEqual([badDates.status, problemPaths(badDates)], [422, ['data_chiusura']]);
    const badRole = await analyst.post('/api/rapporti', { cod_anagrafe: alfa, tipo: 'x', soggetti: [{ cod_anagrafe: mario, ruolo: 'intestatario' }] });
    assert.deepEqual([badRole.status, problemPaths(badRole)], [422, ['soggetti.0.ruolo']]);
    assert.equal((await viewer.post('/api/rapporti', { cod_anagrafe: alfa, tipo: 'x' })).status, 403);
    // Another tenant sees none of it, and cannot open one on our subject.
    assert.equal((await outsider.get(`/api/rapporti?cod_anagrafe=${mario}`)).body.items.length, 0);
    const theirs = await outsider.post('/api/rapporti', { cod_anagrafe: alfa, tipo: 'rapporto_continuativo' });
    assert.deepEqual([theirs.status, problemPaths(theirs)], [422, ['cod_anagrafe']]);
  });

  it('records links both ways: no self-link, share between 0 and 100, both subjects in the tenant, once while open', async () => {
    const ok = await analyst.post('/api/legami', { cod_anagrafe_da: alfa, cod_anagrafe_a: giulia, tipo: 'legale_rappresentante', dal: '2025-06-01', fonte: 'registro' });
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.body.dal, '2025-06-01');
    const dup = await analyst.post('/api/legami', { cod_anagrafe_da: alfa, cod_anagrafe_a: giulia, tipo: 'legale_rappresentante' });
    assert.deepEqual([dup.status, dup.body.code], [409, 'DUPLICATE_LINK']);
    const self = await analyst.post('/api/legami', { cod_anagrafe_da: mario, cod_anagrafe_a: mario, tipo: 'familiare' });
    assert.deepEqual([self.status, problemPaths(self)], [422, ['cod_anagrafe_a']]);
    const pct = await analyst.post('/api/legami', { cod_anagrafe_da: alfa, cod_anagrafe_a: mario, tipo: 'socio', percentuale: 150 });
    assert.deepEqual([pct.status, problemPaths(pct)], [422, ['percentuale']]);
    const dates = await analyst.post('/api/legami', { cod_anagrafe_da: alfa, cod_anagrafe_a: mario, tipo: 'socio', dal: '2026-01-01', al: '2025-01-01' });
    assert.deepEqual([dates.status, problemPaths(dates)], [422, ['al']]);
    // Codes are per tenant: ours that the other tenant does not have (its own ANA-000001 is its own subject).
    const cross = await outsider.post('/api/legami', { cod_anagrafe_da: alfa, cod_anagrafe_a: giulia, tipo: 'socio' });
    assert.equal(cross.status, 422);
    assert.deepEqual(problemPaths(cross).sort(), ['cod_anagrafe_a', 'cod_anagrafe_da']);
    const control = await analyst.post('/api/legami', { cod_anagrafe_da: alfa, cod_anagrafe_a: mario, tipo: 'socio', tipo_controllo: 'controllo' });
    assert.deepEqual([control.status, problemPaths(control)], [422, ['tipo_controllo']]);

    const list = await viewer.get(`/api/legami?cod_anagrafe=${giulia}`);
    assert.deepEqual(list.body.items.map((l: { id: string }) => l.id), [ok.body.id]);
    assert.equal((await viewer.get('/api/legami?tipo=cugino')).status, 422);
  });

  it('records beneficial owners as owner links (/api/ubo), natural persons with their kind of control', async () => {
    const r = await co.post('/api/ubo', { cod_anagrafe: alfa, cod_anagrafe_titolare: mario, percentuale: 60, tipo_controllo: 'proprieta_diretta' });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual([r.body.cod_anagrafe, r.body.cod_anagrafe_titolare, r.body.percentuale, r.body.tipo_controllo], [alfa, mario, 60, 'proprieta_diretta']);
    const link = await env.ownerDb('legami').where({ id: r.body.id }).first();
    assert.equal(link.tipo, 'titolare_effettivo', 'one graph: the owner is a legame');
    const companyOwner = await co.post('/api/ubo', { cod_anagrafe: alfa, cod_anagrafe_titolare: (await env.ownerDb('anagrafe').where({ cod_azienda: tenant, denominazione: 'Beta S.p.A.' }).first()).cod_anagrafe, percentuale: 40, tipo_controllo: 'controllo' });
    assert.deepEqual([companyOwner.status, problemPaths(companyOwner)], [422, ['cod_anagrafe_titolare']]);
    const noControl = await co.post('/api/ubo', { cod_anagrafe: alfa, cod_anagrafe_titolare: giulia });
    assert.deepEqual([noControl.status, problemPaths(noControl)], [422, ['tipo_controllo']]);
    const list = await viewer.get(`/api/ubo?cod_anagrafe=${alfa}`);
    assert.deepEqual(list.body.items.map((u: { cod_anagrafe_titolare: string }) => u.cod_anagrafe_titolare), [mario]);
    assert.equal((await viewer.get(`/api/ubo?titolare=${mario}`)).body.items.length, 1);
    assert.equal((await outsider.get(`/api/ubo?cod_anagrafe=${alfa}`)).body.items.length, 0);
  });

  it('records documents with coherent dates; one already expired is recorded as expired', async () => {
    const ok = await analyst.post('/api/documenti', {
      cod_anagrafe: mario, tipo: 'carta_identita', numero: 'CA 12345 AB', autorita_rilascio: 'Comune di Pisa', paese_rilascio: 'it',
      data_rilascio: '2022-03-01', data_scadenza: '2032-12-10',
    });
    assert.equal(ok.status, 201, ok.text);
    assert.deepEqual([ok.body.numero, ok.body.paese_rilascio, ok.body.stato, ok.body.data_scadenza], ['CA12345AB', 'IT', 'valido', '2032-12-10']);
    const expired = await analyst.post('/api/documenti', { cod_anagrafe: mario, tipo: 'passaporto', numero: 'YA1234567', data_rilascio: '2010-01-01', data_scadenza: '2020-01-01' });
    assert.equal(expired.body.stato, 'scaduto');
    const dup = await analyst.post('/api/documenti', { cod_anagrafe: mario, tipo: 'carta_identita', numero: 'ca12345ab', data_scadenza: '2032-12-10' });
    assert.deepEqual([dup.status, dup.body.code], [409, 'DUPLICATE_DOCUMENT']);
    const backwards = await analyst.post('/api/documenti', { cod_anagrafe: mario, tipo: 'patente', numero: 'PI123', data_rilascio: '2020-01-01', data_scadenza: '2019-01-01' });
    assert.deepEqual([backwards.status, problemPaths(backwards)], [422, ['data_scadenza']]);
    const future = await analyst.post('/api/documenti', { cod_anagrafe: mario, tipo: 'patente', numero: 'PI123', data_rilascio: '2999-01-01', data_scadenza: '2999-12-01' });
    assert.deepEqual([future.status, problemPaths(future)], [422, ['data_rilascio']]);
    const noNumber = await analyst.post('/api/documenti', { cod_anagrafe: mario, tipo: 'passaporto', data_scadenza: '2030-01-01' });
    assert.deepEqual([noNumber.status, problemPaths(noNumber)], [422, ['numero']]);
    const badDate = await analyst.post('/api/documenti', { cod_anagrafe: mario, tipo: 'statuto', data_rilascio: '2020-02-30' });
    assert.deepEqual([badDate.status, problemPaths(badDate)], [422, ['data_rilascio']]);
    const cross = await outsider.post('/api/documenti', { cod_anagrafe: alfa, tipo: 'statuto' });
    assert.deepEqual([cross.status, problemPaths(cross)], [422, ['cod_anagrafe']]);

    const list = await viewer.get(`/api/documenti?cod_anagrafe=${mario}&sort=data_scadenza`);
    assert.deepEqual(list.body.items.map((d: { tipo: string }) => d.tipo), ['passaporto', 'carta_identita']);
    assert.deepEqual((await viewer.get('/api/documenti?stato=scaduto')).body.items.map((d: { id: string }) => d.id), [expired.body.id]);
  });

  it('reads the customer file with relationships, links, owners and documents; another tenant\'s code is 404', async () => {
    const r = await viewer.get(`/api/anagrafe/${alfa}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.rapporti.length, 1);
    assert.equal(r.body.rapporti[0].ruolo, 'intestatario');
    assert.deepEqual(r.body.legami.map((l: { tipo: string; direzione: string; soggetto: { cod_anagrafe: string } }) => [l.tipo, l.direzione, l.soggetto.cod_anagrafe]).sort(),
      [['legale_rappresentante', 'uscente', giulia], ['titolare_effettivo', 'uscente', mario]].sort());
    assert.deepEqual(r.body.titolari_effettivi.map((t: { titolare: { denominazione: string }; percentuale: number }) => [t.titolare.denominazione, t.percentuale]), [['Mario Rossi', 60]]);
    assert.equal(r.body.versioni.length, 1);
    const m = await viewer.get(`/api/anagrafe/${mario}`);
    assert.equal(m.body.rapporti[0].ruolo, 'esecutore');
    assert.equal(m.body.documenti.length, 2);
    assert.ok(m.body.legami.some((l: { direzione: string; tipo: string }) => l.direzione === 'entrante' && l.tipo === 'titolare_effettivo'));

    assert.equal((await outsider.get(`/api/anagrafe/${alfa}`)).status, 404);
    assert.equal((await outsider.put(`/api/anagrafe/${alfa}`, { email: 'x@example.test' })).status, 404);
    assert.equal((await viewer.get('/api/anagrafe/ANA-999999')).status, 404);
  });

  it('keeps every change as a version (fields old and new), answers 409 on a stale version, and shows the record as of a date', async () => {
    const upd = await analyst.put(`/api/anagrafe/${giulia}`, { email: 'giulia.verdi@example.test', telefono: '+39 055 1234567', versione: 1 });
    assert.equal(upd.status, 200, upd.text);
    assert.equal(upd.body.versione, 2);
    assert.deepEqual(upd.body.campi_modificati.sort(), ['email', 'telefono']);
    assert.equal(upd.body.rescreen, null, 'contact data do not re-screen');
    const stale = await co.put(`/api/anagrafe/${giulia}`, { email: 'altro@example.test', versione: 1 });
    assert.deepEqual([stale.status, stale.body.code, stale.body.versione], [409, 'VERSION_CONFLICT', 2]);
    const same = await analyst.put(`/api/anagrafe/${giulia}`, { email: 'giulia.verdi@example.test' });
    assert.equal(same.body.versione, 2, 'no change, no version');
    const badCf = await analyst.put(`/api/anagrafe/${giulia}`, { codice_fiscale: 'VRDGLI80A41H501A' });
    assert.deepEqual([badCf.status, problemPaths(badCf)], [422, ['codice_fiscale']]);
    const takenCf = await analyst.put(`/api/anagrafe/${giulia}`, { codice_fiscale: CF_MARIO });
    assert.deepEqual([takenCf.status, takenCf.body.cod_anagrafe], [409, mario]);
    assert.equal((await viewer.put(`/api/anagrafe/${giulia}`, { email: 'v@example.test' })).status, 403);
    assert.equal((await analyst.put(`/api/anagrafe/${giulia}`, { versione: 'due' })).status, 422);

    const versions = await env.ownerDb('anagrafe_versioni').where({ cod_azienda: tenant, cod_anagrafe: giulia }).orderBy('versione');
    assert.deepEqual(versions.map((v) => [v.versione, v.operazione]), [[1, 'create'], [2, 'update']]);
    assert.deepEqual(versions[1].campi.email, { old: null, new: 'giulia.verdi@example.test' });
    assert.equal(versions[1].snapshot.email, 'giulia.verdi@example.test');
    const audit = await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'anagrafe.update', entity_id: giulia });
    assert.equal(audit.length, 1);

    // Place the versions in the past to read the record as it was.
    await env.ownerDb('anagrafe_versioni').where({ cod_azienda: tenant, cod_anagrafe: giulia, versione: 1 }).update({ changed_at: '2025-01-10T09:00:00Z' });
    await env.ownerDb('anagrafe_versioni').where({ cod_azienda: tenant, cod_anagrafe: giulia, versione: 2 }).update({ changed_at: '2025-06-01T21:30:00Z' });
    const before = await viewer.get(`/api/anagrafe/${giulia}?al=2025-03-01`);
    assert.equal(before.status, 200, before.text);
    assert.deepEqual([before.body.versione, before.body.record.email], [1, null]);
    // 21:30 UTC on 1 June is 23:30 in Rome: still that day.
    const sameDay = await viewer.get(`/api/anagrafe/${giulia}?al=2025-06-01`);
    assert.deepEqual([sameDay.body.versione, sameDay.body.record.email], [2, 'giulia.verdi@example.test']);
    assert.equal((await viewer.get(`/api/anagrafe/${giulia}?al=2024-12-31`)).status, 404, 'not recorded yet');
    const badDate = await viewer.get(`/api/anagrafe/${giulia}?al=01/06/2025`);
    assert.deepEqual([badDate.status, problemPaths(badDate)], [422, ['al']]);
    assert.equal((await outsider.get(`/api/anagrafe/${giulia}?al=2025-06-01`)).status, 404);
  });

  it('re-screens the subject after a change of name, with the screening row in line with the record', async function () {
    const platform = await env.login(await env.createUser({ tenant: null, roles: ['superadmin'] }));
    const imp = await platform.post('/api/v1/screening/import', {});
    assert.equal(imp.status, 202, imp.text);
    await env.temporal.workflow.getHandle(imp.body.workflow_id).result();

    const cod = await create(person({ nome: 'Luca', cognome: 'Bianchi', codice_fiscale: undefined, data_nascita: '1971-01-01', nazionalita: 'IT', email: undefined }));
    // A person listed by the UN (../shared/data/sanctions/un): the same subject now matches.
    const r = await analyst.put(`/api/anagrafe/${cod}`, { nome: 'Eric', cognome: 'Badege', nazionalita: 'CD' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.denominazione, 'Eric Badege');
    assert.deepEqual(r.body.rescreen, { eseguito: true, corrispondenze_nuove: r.body.rescreen.corrispondenze_nuove });
    assert.ok(r.body.rescreen.corrispondenze_nuove >= 1, JSON.stringify(r.body.rescreen));
    const subject = await env.ownerDb('screening_subjects').where({ cod_azienda: tenant, cod_anagrafe: cod }).first();
    assert.deepEqual([subject.nome, subject.nazionalita, subject.data_nascita], ['Eric Badege', 'CD', '1971-01-01']);
    const matches = await env.ownerDb('screening_matches').where({ cod_azienda: tenant, subject_id: subject.id });
    assert.ok(matches.some((m) => m.entry_id === 'un:CDi.001'), matches.map((m) => m.entry_id).join());
  });

  it('soft delete: refused while relationships are open, then the record is kept as eliminato', async () => {
    const refused = await co.post(`/api/anagrafe/${mario}/elimina`, { motivo: 'Cliente cessato' });
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.code, 'OPEN_RELATIONSHIPS');
    assert.equal(refused.body.rapporti.length, 1);
    assert.equal((await analyst.post(`/api/anagrafe/${giulia}/elimina`, { motivo: 'Prova' })).status, 403, 'an operator cannot delete');
    const noReason = await co.post(`/api/anagrafe/${giulia}/elimina`, {});
    assert.deepEqual([noReason.status, problemPaths(noReason)], [422, ['motivo']]);
    assert.equal((await outsider.post(`/api/anagrafe/${giulia}/elimina`, { motivo: 'Altrui' })).status, 404);

    // Giulia's delegation on the relationship ends: she may go (her other links stay on record).
    await env.ownerDb('rapporti_soggetti').where({ cod_azienda: tenant, cod_anagrafe: giulia }).update({ al: '2026-02-01' });
    const del = await co.post(`/api/anagrafe/${giulia}/elimina`, { motivo: 'Rapporto di delega cessato' });
    assert.equal(del.status, 200, del.text);
    assert.equal(del.body.stato, 'eliminato');
    assert.equal(del.body.motivo_eliminazione, 'Rapporto di delega cessato');
    assert.ok(del.body.eliminato_at);
    const kept = await viewer.get(`/api/anagrafe/${giulia}`);
    assert.equal(kept.status, 200, 'the data are kept for the retention period');
    assert.equal(kept.body.versioni[0].operazione, 'delete');
    assert.equal((await analyst.put(`/api/anagrafe/${giulia}`, { email: 'n@example.test' })).body.code, 'CUSTOMER_DELETED');
    assert.equal((await co.post(`/api/anagrafe/${giulia}/elimina`, { motivo: 'Di nuovo' })).status, 409);
    const link = await analyst.post('/api/legami', { cod_anagrafe_da: alfa, cod_anagrafe_a: giulia, tipo: 'altro' });
    assert.deepEqual([link.status, problemPaths(link)], [422, ['cod_anagrafe_a']], 'a deleted subject takes no new links');
    assert.deepEqual((await viewer.get('/api/anagrafe?stato=eliminato')).body.items.map((i: { cod_anagrafe: string }) => i.cod_anagrafe), [giulia]);

    assert.equal((await verifyAuditChain(env.ownerDb, tenant)).ok, true);
  });
});
