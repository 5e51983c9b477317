import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

const nextYear = () => `${new Date().getUTCFullYear() + 1}-06-30`;

/** Polls until `check` holds (effects that run after the reply: CDD consequences, superseded workflows). */
async function eventually<T>(read: () => Promise<T>, check: (v: T) => boolean, what: string, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (check(v)) return v;
    if (Date.now() > until) assert.fail(`${what}: still ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('risk assessments API', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let analyst: TestClient;
  let co1: TestClient;
  let co2: TestClient;
  let coAnalyst: TestClient;
  let viewer: TestClient;
  let outsider: TestClient;
  let n = 0;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    [analyst, co1, co2, coAnalyst, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co', 'analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'analyst'] }).then((u) => env.login(u)),
    ]);
  });

  async function customer(over: Record<string, unknown> = {}, codAzienda = tenant): Promise<string> {
    const cod = `ANA-${String(++n).padStart(6, '0')}`;
    await env.ownerDb('anagrafe').insert({
      cod_azienda: codAzienda, cod_anagrafe: cod, tipo_soggetto: 'persona_fisica', denominazione: `Cliente ${n}`, nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test', ...over,
    });
    return cod;
  }
  async function assess(cod: string, client: TestClient = analyst) {
    const r = await client.post('/api/risk/assessments', { cod_anagrafe: cod });
    assert.equal(r.status, 201, r.text);
    return r.body;
  }
  const customerRow = (cod: string) => env.ownerDb('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: cod }).first();
  const cddTasks = (cod: string) => env.ownerDb('cdd_pratiche').where({ cod_azienda: tenant, cod_anagrafe: cod, motivo: 'cambio_classe_rischio' });

  it('starts an assessment (201 once calculated), released by the system when there is no class in force', async () => {
    const cod = await customer({ pep: true });
    const r = await analyst.post('/api/risk/assessments', { cod_anagrafe: cod });
    assert.equal(r.status, 201, r.text);
    assert.match(r.body.cod_valutazione, /^VAL-\d{6}$/);
    assert.equal(r.headers.get('location'), `/api/risk/assessments/${r.body.cod_valutazione}`);
    assert.equal(r.body.stato, 'released');
    assert.equal(r.body.classe_calcolata, 'medio_alto');
    assert.equal(r.body.classe_effettiva, 'medio_alto');
    assert.equal(r.body.pavimento, null, 'the score reaches medium-high by itself: no floor needed');
    assert.ok(r.body.workflow_id.startsWith(`risk-assessment:${tenant}:`));
    assert.deepEqual(r.body.allowed_actions, ['override'], 'an analyst may override; archiving is a compliance officer\'s');
    const c = await customerRow(cod);
    assert.equal(c.classe_rischio, 'medio_alto');
    assert.equal(c.punteggio_rischio, r.body.punteggio);
    const version = await env.ownerDb('anagrafe_versioni').where({ cod_azienda: tenant, cod_anagrafe: cod }).orderBy('versione', 'desc').first();
    assert.deepEqual(Object.keys(version.campi).sort(), ['classe_rischio', 'punteggio_rischio'], 'a customer version with the two fields the release sets');
    const storico = await env.ownerDb('rischio_storico').where({ cod_azienda: tenant, cod_anagrafe: cod });
    assert.equal(storico.length, 1);
    assert.equal(storico[0].valutazione_id, r.body.id);
    assert.equal(storico[0].origine, 'manuale');
    // The first class is no change of class: no CDD task for it.
    await new Promise((res) => setTimeout(res, 1_500));
    assert.equal((await cddTasks(cod)).length, 0);
  });

  it('refuses bad input with the field named, another tenant\'s customer, and roles that may not start one', async () => {
    for (const body of [{}, { cod_anagrafe: '' }, { cod_anagrafe: 'ANA-000001', motivo: 'portafoglio' }, { cod_anagrafe: 'x'.repeat(65) }]) {
      const r = await analyst.post('/api/risk/assessments', body);
      assert.equal(r.status, 422, `${JSON.stringify(body)}: ${r.text}`);
    }
    const unknown = await analyst.post('/api/risk/assessments', { cod_anagrafe: 'ANA-999999' });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.errors?.[0]?.path, 'cod_anagrafe');
    const theirs = await customer({}, other);
    assert.equal((await analyst.post('/api/risk/assessments', { cod_anagrafe: theirs })).status, 422, 'another tenant\'s customer is not found');
    assert.equal((await viewer.post('/api/risk/assessments', { cod_anagrafe: await customer() })).status, 403);
    assert.equal((await viewer.post(`/api/risk/calculate/${await customer()}`)).status, 403);
    assert.equal((await analyst.post('/api/risk/calculate/ANA-999999')).status, 404);
    assert.equal((await analyst.post(`/api/risk/calculate/${theirs}`)).status, 404);
    assert.equal((await analyst.get('/api/risk/assessments?stato=nuovo')).status, 422);
    assert.equal((await analyst.get('/api/risk/assessments?classe=altissimo')).status, 422);
  });

  it('reads one (404 for another tenant\'s or a malformed code), lists with filters, explains the score', async () => {
    const cod = await customer({ pep: true, tipo_soggetto: 'societa', denominazione: 'Alfa S.p.A.' });
    const a = await assess(cod);
    const got = await viewer.get(`/api/risk/assessments/${a.cod_valutazione}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body.allowed_actions, [], 'a viewer reads and acts on nothing');
    assert.equal((await outsider.get(`/api/risk/assessments/${a.cod_valutazione}`)).status, 404);
    assert.equal((await outsider.get(`/api/risk/assessments/${a.cod_valutazione}/explainability`)).status, 404);
    assert.equal((await analyst.get('/api/risk/assessments/VAL-999999')).status, 404);
    assert.equal((await analyst.get('/api/risk/assessments/nonsense')).status, 404);

    const list = await analyst.get(`/api/risk/assessments?cod_anagrafe=${cod}`);
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.items.map((i: { cod_valutazione: string }) => i.cod_valutazione), [a.cod_valutazione]);
    assert.ok((await analyst.get('/api/risk/assessments?stato=released&classe=alto')).body.items.some((i: { id: string }) => i.id === a.id));
    assert.equal((await outsider.get(`/api/risk/assessments?cod_anagrafe=${cod}`)).body.items.length, 0);

    const x = await analyst.get(`/api/risk/assessments/${a.cod_valutazione}/explainability`);
    assert.equal(x.status, 200, x.text);
    const codes = x.body.contributi.map((c: { regola: string }) => c.regola).sort();
    assert.deepEqual(codes, ['pep', 'tipo_societa']);
    const pep = x.body.contributi.find((c: { regola: string }) => c.regola === 'pep');
    assert.equal(pep.classe_minima, 'medio_alto');
    assert.ok(pep.letti.some((l: { path: string; valore: unknown }) => l.path === 'cliente.pep' && l.valore === true), JSON.stringify(pep.letti));
    assert.equal(pep.versione_regole, x.body.versione.versione);
    assert.equal(x.body.somma, 40);
    assert.equal(x.body.punteggio, 40);
    assert.equal(x.body.passi.at(-1).a, 40);
    assert.equal(x.body.soglie.length, 4);
    assert.equal(x.body.classe_calcolata, 'alto');
  });

  it('override: bad input 422, roles 403, four-eyes 403, confirmed by another compliance officer and applied to the customer and the CDD', async () => {
    const cod = await customer();
    const a = await assess(cod);
    assert.equal(a.classe_effettiva, 'basso');
    const url = `/api/risk/assessments/${a.cod_valutazione}`;
    for (const body of [{}, { classe: 'alto' }, { classe: 'altissimo', motivo: 'perché sì' }, { classe: 'alto', motivo: '   ' }, { classe: 'alto', motivo: 'valido', scadenza: '2020-01-01' }, { classe: 'alto', motivo: 'valido', scadenza: '31/12/2099' }]) {
      const r = await coAnalyst.post(`${url}/override`, body);
      assert.equal(r.status, 422, `${JSON.stringify(body)}: ${r.text}`);
    }
    assert.equal((await viewer.post(`${url}/override`, { classe: 'alto', motivo: 'Notizie negative' })).status, 403);
    assert.equal((await outsider.post(`${url}/override`, { classe: 'alto', motivo: 'Notizie negative' })).status, 404);

    const o = await coAnalyst.post(`${url}/override`, { classe: 'alto', motivo: 'Notizie di stampa negative', scadenza: nextYear() });
    assert.equal(o.status, 200, o.text);
    assert.equal(o.body.stato, 'override_pending');
    assert.equal(o.body.override_scadenza, nextYear());
    assert.deepEqual(o.body.allowed_actions, [], 'its author may not confirm it');
    const pending = await co1.get(`/api/risk/assessments?da_confermare=true&cod_anagrafe=${cod}`);
    assert.deepEqual(pending.body.items.map((i: { id: string }) => i.id), [a.id]);
    assert.equal((await coAnalyst.get(`/api/risk/assessments?da_confermare=true&cod_anagrafe=${cod}`)).body.items.length, 0);

    const self = await coAnalyst.post(`${url}/complete-override`, {});
    assert.equal(self.status, 403, self.text);
    assert.equal(self.body.code, 'FOUR_EYES_REQUIRED');
    assert.equal((await analyst.post(`${url}/complete-override`, {})).status, 403);
    const release = await co1.post(`${url}/release`, {});
    assert.equal(release.status, 409);
    assert.deepEqual(release.body.allowed_actions, ['complete-override']);

    const done = await co1.post(`${url}/complete-override`, {});
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.stato, 'released');
    assert.equal(done.body.classe_effettiva, 'alto');
    assert.equal((await customerRow(cod)).classe_rischio, 'alto');
    const corrente = await env.ownerDb('rischio_correnti').where({ cod_azienda: tenant, cod_anagrafe: cod }).first();
    assert.equal(corrente.classe_effettiva, 'alto');
    const [task] = await eventually(() => cddTasks(cod), (t) => t.length >= 1, 'the CDD task for basso → alto');
    assert.equal(task.livello, 'rafforzata');
    assert.equal(task.origine.a, 'alto');
    const again = await co2.post(`${url}/complete-override`, {});
    assert.equal(again.status, 409);
  });

  it('a lower class waits for a person: calculate answers it completed, its release supersedes the previous one', async () => {
    const cod = await customer({ pep: true });
    const first = await assess(cod);
    assert.equal(first.stato, 'released');
    // The customer is no longer a PEP: the score goes down.
    await env.ownerDb('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: cod }).update({ pep: false });
    const calc = await analyst.post(`/api/risk/calculate/${cod}`, {});
    assert.equal(calc.status, 201, calc.text);
    assert.equal(calc.body.stato, 'completed', 'no silent de-risking');
    assert.equal(calc.body.classe_calcolata, 'basso');
    assert.equal(calc.body.classe_precedente, 'medio_alto');
    assert.deepEqual(calc.body.allowed_actions, ['override', 'release']);
    assert.equal((await customerRow(cod)).classe_rischio, 'medio_alto');

    const rel = await analyst.post(`/api/risk/assessments/${calc.body.cod_valutazione}/release`, { nota: 'Non più PEP da oltre un anno' });
    assert.equal(rel.status, 200, rel.text);
    assert.equal(rel.body.stato, 'released');
    assert.equal(rel.body.released_by.length > 0, true);
    assert.equal((await customerRow(cod)).classe_rischio, 'basso');
    const old = (await analyst.get(`/api/risk/assessments/${first.cod_valutazione}`)).body;
    assert.equal(old.stato, 'archived');
    assert.equal(old.superata_da, calc.body.id);
    const archiveAgain = await co1.post(`/api/risk/assessments/${first.cod_valutazione}/archive`, {});
    assert.equal(archiveAgain.status, 409);
    assert.deepEqual(archiveAgain.body.allowed_actions, []);

    const history = await viewer.get(`/api/risk/history/${cod}`);
    assert.equal(history.status, 200, history.text);
    assert.deepEqual(history.body.punti.map((p: { classe: string }) => p.classe), ['medio_alto', 'basso']);
    assert.deepEqual(history.body.valutazioni.map((v: { cod_valutazione: string }) => v.cod_valutazione), [calc.body.cod_valutazione, first.cod_valutazione]);
    assert.equal(history.body.corrente.classe_effettiva, 'basso');
    const [task] = await eventually(() => cddTasks(cod), (t) => t.length === 1, 'the CDD task for medio_alto → basso');
    assert.equal(task.origine.da, 'medio_alto');
    assert.equal(task.origine.riferimento, calc.body.id);
    assert.equal((await outsider.get(`/api/risk/history/${cod}`)).status, 404);
    assert.equal((await viewer.get('/api/risk/history/ANA-999999')).status, 404);
  });

  it('archive by hand: a compliance officer only, then nothing more (409)', async () => {
    const cod = await customer();
    const a = await assess(cod);
    const url = `/api/risk/assessments/${a.cod_valutazione}`;
    assert.equal((await analyst.post(`${url}/archive`, {})).status, 403);
    assert.equal((await co1.post(`${url}/archive`, { nota: 'x'.repeat(5001) })).status, 422);
    const r = await co1.post(`${url}/archive`, { nota: 'Cliente cessato' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.stato, 'archived');
    const again = await co1.post(`${url}/override`, { classe: 'alto', motivo: 'troppo tardi' });
    assert.equal(again.status, 409);
  });

  it('opens an investigation case from an assessment, once (a second call answers the same case)', async () => {
    const cod = await customer({ pep: true });
    const a = await assess(cod);
    assert.equal((await analyst.post('/api/risk/cases/open-from-assessment', {})).status, 422);
    assert.equal((await analyst.post('/api/risk/cases/open-from-assessment', { cod_valutazione: a.cod_valutazione, priorita: 'urgentissima' })).status, 422);
    // The assessment is named in the body: another tenant's is refused on its field, as if it did not exist.
    const foreign = await outsider.post('/api/risk/cases/open-from-assessment', { cod_valutazione: a.cod_valutazione });
    assert.deepEqual([foreign.status, foreign.body.errors?.[0]?.path], [422, 'cod_valutazione']);
    assert.equal((await viewer.post('/api/risk/cases/open-from-assessment', { cod_valutazione: a.cod_valutazione })).status, 403);
    const first = await analyst.post('/api/risk/cases/open-from-assessment', { cod_valutazione: a.cod_valutazione });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.created, true);
    assert.equal(first.body.caso.cod_anagrafe, cod);
    assert.equal(first.body.caso.tipo, 'indagine');
    const second = await co1.post('/api/risk/cases/open-from-assessment', { cod_valutazione: a.cod_valutazione });
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.created, false);
    assert.equal(second.body.cod_caso, first.body.cod_caso);
    assert.equal((await analyst.get(`/api/risk/assessments/${a.cod_valutazione}`)).body.cod_caso, first.body.cod_caso);
    assert.equal((await analyst.get(`/api/cases/${first.body.cod_caso}`)).status, 200);
    assert.equal((await env.ownerDb('cases').where({ cod_azienda: tenant, cod_anagrafe: cod })).length, 1);
  });
});
