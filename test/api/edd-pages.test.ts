import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const html = { accept: 'text/html' };

describe('EDD pages and API', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let analyst: TestClient;
  let co1: TestClient;
  let co2: TestClient;
  let viewer: TestClient;
  let outsider: TestClient;
  let analystUser: TestUser;
  let co1User: TestUser;
  let outsiderUser: TestUser;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    [analystUser, co1User, outsiderUser] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }), env.createUser({ tenant, roles: ['co'] }), env.createUser({ tenant: other, roles: ['co', 'analyst'] }),
    ]);
    [analyst, co1, co2, viewer, outsider] = await Promise.all([
      env.login(analystUser), env.login(co1User),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.login(outsiderUser),
    ]);
    const person = { tipo_soggetto: 'persona_fisica', nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test' };
    await env.ownerDb('anagrafe').insert([
      { ...person, cod_azienda: tenant, cod_anagrafe: 'ANA-000001', denominazione: 'Giulia Verdi', pep: true, classe_rischio: 'medio' },
      { ...person, cod_azienda: tenant, cod_anagrafe: 'ANA-000002', denominazione: 'Import Export Srl', tipo_soggetto: 'societa', paese_residenza: 'IR', classe_rischio: 'alto' },
      { ...person, cod_azienda: other, cod_anagrafe: 'ANA-000009', denominazione: 'Altro Cliente', pep: true },
    ]);
  });

  const idOf = (location: string | null) => { const m = UUID.exec(location ?? ''); assert.ok(m, `no id in ${location}`); return m[0]; };
  const stepsOf = (id: string) => env.ownerDb('edd_step').where({ edd_id: id }).orderBy('ordine');
  const rowOf = (id: string) => env.ownerDb('edd_casi').where({ id }).first();

  async function openByForm(client: TestClient, form: Record<string, string | string[]>) {
    const r = await client.submitForm('/edd/nuovo', form, `/edd/nuovo?cod_anagrafe=${form.cod_anagrafe}`);
    assert.equal(r.status, 302, r.text.slice(0, 500));
    return idOf(r.headers.get('location'));
  }

  it('the new-case form proposes the customer\'s reasons and measures, and refuses bad input next to the field', async () => {
    const empty = await analyst.get('/edd/nuovo', html);
    assert.equal(empty.status, 200);
    assert.doesNotMatch(empty.text, /id="form-nuova-edd"/, 'no case form before a customer is chosen');

    const company = await analyst.get('/edd/nuovo?cod_anagrafe=ANA-000002', html);
    assert.match(company.text, /Import Export Srl/);
    assert.match(company.text, /name="motivi" value="paese_alto_rischio" checked/, 'Iran is on the EU list of high-risk third countries');
    assert.match(company.text, /name="motivi" value="classe_rischio_alta" checked/);
    assert.doesNotMatch(company.text, /name="motivi" value="pep" checked/);
    assert.match(company.text, /name="misure" value="approvazione_alta_direzione" checked/);

    const unknown = await analyst.get('/edd/nuovo?cod_anagrafe=ANA-999999', html);
    assert.match(unknown.text, /Cliente non trovato in anagrafe/);
    const foreign = await analyst.get('/edd/nuovo?cod_anagrafe=ANA-000009', html);
    assert.match(foreign.text, /Cliente non trovato in anagrafe/, 'another tenant\'s customer is not found');

    const noReason = await analyst.submitForm('/edd/nuovo', { cod_anagrafe: 'ANA-000001', misure: 'origine_fondi', descrizione: 'già scritto' }, '/edd/nuovo?cod_anagrafe=ANA-000001');
    assert.equal(noReason.status, 422);
    assert.match(noReason.text, /id="motivi-err"[^>]*>Indica almeno un motivo/);
    assert.match(noReason.text, /già scritto/, 'what was typed is kept');
    const noMeasure = await analyst.submitForm('/edd/nuovo', { cod_anagrafe: 'ANA-000001', motivi: 'pep' }, '/edd/nuovo?cod_anagrafe=ANA-000001');
    assert.equal(noMeasure.status, 422);
    assert.match(noMeasure.text, /id="misure-err"[^>]*>Scegli almeno una misura/);
    assert.match(noMeasure.text, /name="misure" value="approvazione_alta_direzione" checked/, 'the measures of the ticked reasons are proposed');
    const badReason = await analyst.submitForm('/edd/nuovo', { cod_anagrafe: 'ANA-000001', motivi: 'simpatia', misure: 'origine_fondi' }, '/edd/nuovo?cod_anagrafe=ANA-000001');
    assert.equal(badReason.status, 422);
    const crossTenant = await analyst.submitForm('/edd/nuovo', { cod_anagrafe: 'ANA-000009', motivi: 'pep', misure: 'origine_fondi' }, '/edd/nuovo');
    assert.equal(crossTenant.status, 422);
    assert.equal((await env.ownerDb('edd_casi').whereIn('cod_azienda', [tenant, other]).count({ n: '*' }).first())?.n, 0, 'nothing was opened');

    assert.equal((await viewer.get('/edd/nuovo', html)).status, 403, 'a viewer opens nothing');
  });

  it('walks a case through the pages: steps, approva refused while open (409), four-eyes (403), respingi, approval, close', async () => {
    const id = await openByForm(analyst, { cod_anagrafe: 'ANA-000001', motivi: 'pep', misure: ['origine_fondi', 'approvazione_alta_direzione'], descrizione: 'Cliente PEP: consigliere regionale' });
    const path = `/edd/${id}`;
    const row = await rowOf(id);
    assert.match(row.cod_edd, /^EDD-\d{6}$/);
    assert.deepEqual(row.motivi, ['pep']);

    const detail = await analyst.get(path, html);
    assert.equal(detail.status, 200);
    assert.match(detail.text, /Verifica rafforzata aperta/, 'flash after the redirect');
    assert.match(detail.text, /data-workflow-id="edd:/);
    assert.match(detail.text, /<svg/);
    assert.match(detail.text, /data-steps-open/, 'no submit button while measures are open');
    assert.equal((detail.text.match(/data-complete-form/g) ?? []).length, 2);

    // Adding a measure: a missing title is shown next to the field; another tenant's user is not an assignee.
    const badStep = await analyst.submitForm(`${path}/step`, { tipo: 'altro', titolo: '', descrizione: 'note' }, path);
    assert.equal(badStep.status, 422);
    assert.match(badStep.text, /id="f-titolo-err"[^>]*>Indica il titolo della misura/);
    const foreignUser = await analyst.submitForm(`${path}/step`, { tipo: 'altro', titolo: 'Visura', assegnatario: outsiderUser.cod_utente }, path);
    assert.equal(foreignUser.status, 422);
    assert.match(foreignUser.text, /Utente non trovato in questa azienda/);
    const badDate = await analyst.submitForm(`${path}/step`, { tipo: 'altro', titolo: 'Visura', scadenza: '2027-02-30' }, path);
    assert.equal(badDate.status, 422);
    const added = await analyst.submitForm(`${path}/step`, { tipo: 'altro', titolo: 'Visura camerale del coniuge', descrizione: '', assegnatario: co1User.cod_utente, scadenza: '2027-01-31' }, path);
    assert.equal(added.status, 302);
    const steps = await stepsOf(id);
    assert.equal(steps.length, 3);

    // Completing: the outcome note is required; an unknown step is a 404.
    const noOutcome = await analyst.submitForm(`${path}/step/${steps[0].id}/completa`, { esito: '  ', riferimento_evidenza: 'DOC-1' }, path);
    assert.equal(noOutcome.status, 422);
    assert.match(noOutcome.text, new RegExp(`id="esito-${steps[0].id}-err"[^>]*>Scrivi l(&#39;|')esito della misura`));
    assert.equal((await analyst.submitForm(`${path}/step/${'0'.repeat(8)}-0000-4000-8000-000000000000/completa`, { esito: 'x' }, path)).status, 404);
    assert.equal((await analyst.submitForm(`${path}/step/nonunid/completa`, { esito: 'x' }, path)).status, 404);
    const done1 = await analyst.submitForm(`${path}/step/${steps[0].id}/completa`, { esito: 'Fondi da stipendio', riferimento_evidenza: 'DOC-1' }, path);
    assert.equal(done1.status, 302);
    const again = await analyst.submitForm(`${path}/step/${steps[0].id}/completa`, { esito: 'di nuovo' }, path);
    assert.equal(again.status, 409, 'a completed measure is not completed twice');
    assert.match(again.text, /già stata completata/);

    const early = await analyst.submitForm(`${path}/approva`, {}, path);
    assert.equal(early.status, 409, 'approva is refused while a measure is open');
    assert.match(early.text, /misure ancora da completare/);
    assert.equal((await rowOf(id)).stato, 'open');

    for (const s of steps.slice(1)) assert.equal((await co1.submitForm(`${path}/step/${s.id}/completa`, { esito: 'Fatto' }, path)).status, 302);
    const submitted = await co1.submitForm(`${path}/approva`, {}, path);
    assert.equal(submitted.status, 302);
    assert.equal((await rowOf(id)).stato, 'pending_supervisor');

    const selfPage = await co1.get(path, html);
    assert.match(selfPage.text, /data-four-eyes/);
    assert.doesNotMatch(selfPage.text, /data-action="approva-supervisore"/, 'no button for what would be refused');
    const self = await co1.submitForm(`${path}/approva-supervisore`, {}, path);
    assert.equal(self.status, 403, 'the submitter cannot approve');
    assert.match(self.text, /principio dei quattro occhi/);
    assert.equal((await analyst.submitForm(`${path}/approva-supervisore`, {}, path)).status, 403, 'an analyst is no supervisor');
    assert.equal((await analyst.submitForm(`${path}/step`, { tipo: 'altro', titolo: 'Tardiva' }, path)).status, 409, 'measures are frozen while pending');

    const noReason = await co2.submitForm(`${path}/respingi`, { motivazione: '' }, path);
    assert.equal(noReason.status, 422);
    assert.match(noReason.text, /id="f-motivazione-err"[^>]*>Indica il motivo del respingimento/);
    assert.equal((await co2.submitForm(`${path}/respingi`, { motivazione: 'Manca l\'estratto conto' }, path)).status, 302);
    const reopened = await rowOf(id);
    assert.equal(reopened.stato, 'open');
    assert.equal(reopened.motivo_respingimento, 'Manca l\'estratto conto');

    assert.equal((await analyst.submitForm(`${path}/approva`, {}, path)).status, 302);
    assert.match((await co1.get(path, html)).text, /data-action="approva-supervisore"/, 'now co1 is not the submitter');
    assert.equal((await co1.submitForm(`${path}/approva-supervisore`, {}, path)).status, 302);
    assert.equal((await analyst.submitForm(`${path}/approva`, {}, path)).status, 409, 'an approved case is not submitted again');
    assert.equal((await analyst.submitForm(`${path}/chiudi`, { nota: 'Monitoraggio rafforzato attivo' }, path)).status, 302);
    const closed = await rowOf(id);
    assert.equal(closed.stato, 'closed');
    assert.equal(closed.approved_by, co1User.cod_utente);
    assert.equal(closed.submitted_by, analystUser.cod_utente);
    const afterClose = await analyst.submitForm(`${path}/chiudi`, {}, path);
    assert.equal(afterClose.status, 409, 'a closed case (its workflow ended) refuses with 409');

    const final = await viewer.get(path, html);
    assert.equal(final.status, 200);
    assert.match(final.text, /data-no-actions/);
    assert.match(final.text, /Verifica rafforzata approvata \(quattro occhi\)/, 'the timeline tells the approval');
    assert.match(final.text, /Manca l&#39;estratto conto|Manca l'estratto conto/);
    assert.match(final.text, /Nota: Monitoraggio rafforzato attivo/, 'the closing note, as a note');

    // Another tenant: every page and action is a 404.
    assert.equal((await outsider.get(path, html)).status, 404);
    for (const action of ['approva', 'approva-supervisore', 'chiudi', 'respingi', 'step', `step/${steps[0].id}/completa`]) {
      const r = await outsider.submitForm(`${path}/${action}`, { motivazione: 'x', esito: 'x', tipo: 'altro', titolo: 'Intrusa' }, '/edd');
      assert.equal(r.status, 404, action);
    }
    assert.equal((await analyst.get('/edd/non-un-id', html)).status, 404);
    // Without the CSRF token nothing happens.
    assert.equal((await analyst.request('POST', `${path}/chiudi`, { form: {}, headers: html })).status, 403);
  });

  it('lists cases with filters, sort and pages; htmx gets the table only', async () => {
    const second = await openByForm(analyst, { cod_anagrafe: 'ANA-000002', motivi: ['paese_alto_rischio'], misure: ['informazioni_titolari'] });
    const list = await analyst.get('/edd', html);
    assert.equal(list.status, 200);
    assert.match(list.text, /Nuova verifica rafforzata/);
    assert.match(list.text, /Import Export Srl/);
    const pep = await analyst.get('/edd?motivo=pep&stato=closed', html);
    assert.match(pep.text, /Giulia Verdi/);
    assert.doesNotMatch(pep.text, /Import Export Srl/);
    const fragment = await analyst.get('/edd?motivo=paese_alto_rischio', { ...html, 'HX-Request': 'true' });
    assert.doesNotMatch(fragment.text, /<html/i);
    assert.match(fragment.text, new RegExp(second));
    const firstPage = await analyst.get('/edd?limit=1&sort=cod_edd', html);
    assert.match(firstPage.text, /cursor=/, 'a link to the next page');
    const bad = await analyst.get('/edd?stato=inventato&sort=nessuno', html);
    assert.equal(bad.status, 200, 'bad filters are ignored, never a 500');
    assert.match(bad.text, /filtri non erano validi/);
    assert.equal((await viewer.get('/edd', html)).status, 200);
    assert.doesNotMatch((await outsider.get('/edd', html)).text, /Giulia Verdi/, 'another tenant sees none');
  });

  it('JSON twins: create, read, list, 422 naming the field, 409 with open steps, 403 four-eyes, 404 across tenants', async () => {
    const bad = await analyst.post('/api/edd', { cod_anagrafe: '', motivi: ['nessuno'] });
    assert.equal(bad.status, 422);
    assert.ok(bad.body.errors.some((e: { path: string }) => e.path === 'cod_anagrafe'));
    const derived = await analyst.post('/api/edd', { cod_anagrafe: 'ANA-000002' });
    assert.equal(derived.status, 201, derived.text);
    assert.deepEqual(derived.body.motivi, ['paese_alto_rischio', 'classe_rischio_alta'], 'reasons from the customer when none are given');
    assert.equal(derived.headers.get('location'), `/api/edd/${derived.body.id}`);
    const id = derived.body.id as string;

    const read = await viewer.get(`/api/edd/${id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.steps.length, 7);
    assert.deepEqual(read.body.allowed_actions, []);
    assert.equal((await outsider.get(`/api/edd/${id}`)).status, 404);
    assert.equal((await outsider.post(`/api/edd/${id}/approva`, {})).status, 404);

    const early = await analyst.post(`/api/edd/${id}/approva`, {});
    assert.equal(early.status, 409);
    assert.equal(early.body.code, 'STEPS_OPEN');
    assert.equal(early.body.open_steps.length, 7);
    assert.deepEqual(early.body.allowed_actions.sort(), ['aggiungi-step', 'approva', 'completa-step']);

    const noOutcome = await analyst.post(`/api/edd/${id}/step/${read.body.steps[0].id}/completa`, {});
    assert.equal(noOutcome.status, 422);
    assert.equal(noOutcome.body.errors[0].path, 'esito');
    for (const s of read.body.steps) {
      const r = await co1.post(`/api/edd/${id}/step/${s.id}/completa`, { esito: 'Verificato', riferimento_evidenza: 'FASC-9' });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.step.stato, 'completato');
    }
    const added = await analyst.post(`/api/edd/${id}/step`, { tipo: 'monitoraggio_rafforzato', titolo: 'Soglie ridotte per sei mesi', scadenza: '2020-01-31' });
    assert.equal(added.status, 201, added.text);
    assert.equal(added.body.step.ordine, 8);
    assert.equal(added.body.step.scadenza, '2020-01-31');
    const late = await analyst.get(`/edd/${id}`, html);
    assert.match(late.text, new RegExp(`data-step="${added.body.step.id}"[\\s\\S]*?31/01/2020[\\s\\S]*?data-step-late`), 'an open measure past its due date says so');
    assert.equal((late.text.match(/data-step-late/g) ?? []).length, 1);
    assert.equal((await analyst.post(`/api/edd/${id}/step/${added.body.step.id}/completa`, { esito: 'Attivato' })).status, 200);

    assert.equal((await co1.post(`/api/edd/${id}/approva`, {})).status, 200);
    // Waiting for a supervisor: the other officer's list and home show it, the submitter's do not.
    const tileCount = async (c: TestClient) => {
      const home = (await c.get('/', html)).text;
      const m = /data-home-tile="edd:four-eyes"[\s\S]*?data-count="(\d+)"/.exec(home);
      return m ? Number(m[1]) : null;
    };
    assert.equal(await tileCount(co2), 1);
    assert.equal(await tileCount(co1), 0, 'never what one submitted');
    assert.equal(await tileCount(analyst), null, 'approvals are a compliance officer\'s');
    assert.deepEqual((await co2.get('/api/edd?da_approvare=true')).body.items.map((e: { id: string }) => e.id), [id]);
    assert.equal((await co1.get('/api/edd?da_approvare=true')).body.total, 0);
    assert.match((await co2.get('/edd?da_approvare=true', html)).text, new RegExp(id));
    const self = await co1.post(`/api/edd/${id}/approva-supervisore`, {});
    assert.equal(self.status, 403);
    assert.equal(self.body.code, 'FOUR_EYES_REQUIRED');
    const invalid = await analyst.post(`/api/edd/${id}/chiudi`, {});
    assert.equal(invalid.status, 409);
    assert.equal(invalid.body.code, 'INVALID_TRANSITION');
    const ok = await co2.post(`/api/edd/${id}/approva-supervisore`, {});
    assert.equal(ok.status, 200);
    assert.equal(ok.body.stato, 'approved');

    const list = await viewer.get('/api/edd?stato=approved');
    assert.equal(list.status, 200);
    assert.ok(list.body.items.some((e: { id: string }) => e.id === id));
    assert.equal((await viewer.get('/api/edd?stato=inventato')).status, 422);
    assert.equal((await outsider.get('/api/edd')).body.items.length, 0);
  });
});
