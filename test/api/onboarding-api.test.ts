import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { settleLinkDeliveries } from '../../src/domains/onboarding/onboarding.links';
import { walletProofMessage } from '../../src/domains/onboarding/wallet-proof';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { linkIn } from '../helpers/mailbox';
import type { TestClient } from '../helpers/http-client';
import { provenEthWallet } from '../helpers/onboarding';
import { eventually, JPEG, linkToken, openCase, PDF, personaFisica, PNG, uniqueEmail } from './onboarding-fixtures';

const ETH_DOC = { indirizzo: '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23', messaggio: 'Some data',
  firma: '0xb91467e570a6466aa9e9876cbcd013baba02900b8979d43fe208a4a4f339f5fd6007e74cd82e037b800186422fc2da167c747ef045e5d18a5f5d4300f8e1a0291c' };

describe('onboarding applicant API', function () {
  // Settles to the error, if any, so a failure is reported by after() and never left unhandled.
  let historyDeleted: Promise<Error | null> = Promise.resolve(null);
  after(async function () {
    this.timeout(200_000);
    const err = await historyDeleted;
    if (err) throw err;
  });
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
  });

  const clearLinkThrottle = () => env.ownerDb('login_throttle').where('key', 'like', 'magic-link:%').delete();

  describe('erase before submission', () => {
    it('blanks the case, removes its documents, ends the session and deletes the workflow history', async function () {
      const { client: c, base, caseId } = await openCase(env, tenant, { subjectType: 'persona_fisica' });
      assert.equal((await c.post(`${base}/anagrafe`, personaFisica())).status, 200);
      const unique = Buffer.concat([PDF, Buffer.from(`% ${caseId}\n`)]);
      const up = await c.upload(`${base}/documents`, { tipo: 'documento_identita' }, { name: 'ci.pdf', type: 'application/pdf', bytes: unique });
      assert.equal(up.status, 201, up.text);
      const file = join(env.deps.config.documentDir, tenant, up.body.sha256.slice(0, 2), up.body.sha256);
      const wf = (await env.ownerDb('onboarding_cases').where({ id: caseId }).first()).workflow_id as string;

      const r = await c.delete(`${base}/erase`);
      assert.equal(r.status, 204, r.text);
      const row = await env.ownerDb('onboarding_cases').where({ id: caseId }).first();
      assert.equal(row.stato, 'erased');
      assert.equal(row.email, null);
      assert.deepEqual(row.anagrafe, {});
      assert.ok(row.erased_at);
      assert.equal((await env.ownerDb('onboarding_documents').where({ case_id: caseId })).length, 0);
      assert.ok(!existsSync(file), 'the document\'s bytes are gone');
      assert.equal(c.cookie('cp_onb'), undefined, 'the session cookie is cleared');
      assert.equal((await env.ownerDb('onboarding_sessions').where({ case_id: caseId })).length, 0);
      assert.equal((await c.get(base)).status, 404);
      // Temporal deletes a closed execution asynchronously, once its close tasks are acknowledged
      // (the server moves its queues' ack levels every 30 s or so): the check runs while the
      // rest of this file does, and the file's after() hook waits for its verdict.
      historyDeleted = eventually(() => env.temporal.workflow.getHandle(wf).describe().then(() => false, (e: Error) => /not found/i.test(e.message)), 'the workflow history to be deleted', 170_000)
        .then(() => null, (e: Error) => e);
    });
  });

  describe('resume links', () => {
    it('exchanges a link once for the applicant session; reuse, expiry and forgery are refused (JSON)', async () => {
      const { caseId } = await openCase(env, tenant);
      const token = await linkToken(env, tenant, caseId);
      const c = env.client();
      let r = await c.get(`/api/v1/onboarding/resume?token=${encodeURIComponent(token)}`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body, { case_id: caseId, stato: 'draft' });
      assert.ok(c.cookie('cp_onb'), 'the applicant session cookie is set');
      r = await c.get(`/api/v1/onboarding/case/${caseId}`);
      assert.equal(r.status, 200, r.text);

      r = await env.client().get(`/api/v1/onboarding/resume?token=${encodeURIComponent(token)}`);
      assert.equal(r.status, 410);
      assert.equal(r.body.code, 'LINK_USED');
      assert.match(r.headers.get('content-type') ?? '', /problem\+json/);

      const expired = await linkToken(env, tenant, caseId, { now: new Date(Date.now() - 80 * 3_600_000), ttlHours: 72 });
      r = await env.client().get(`/api/v1/onboarding/resume?token=${encodeURIComponent(expired)}`);
      assert.equal(r.status, 410);
      assert.equal(r.body.code, 'LINK_EXPIRED');

      const forged = `${token.slice(0, -4)}AAAA`;
      r = await env.client().get(`/api/v1/onboarding/resume?token=${encodeURIComponent(forged)}`);
      assert.equal(r.status, 400);
      assert.equal(r.body.code, 'LINK_INVALID');
      r = await env.client().get('/api/v1/onboarding/resume');
      assert.equal(r.status, 400);
      assert.equal(r.body.code, 'LINK_INVALID');
    });

    it('sends browsers on to the case, or to a page that offers a new link (410 used, 400 invalid)', async () => {
      const { caseId } = await openCase(env, tenant);
      const token = await linkToken(env, tenant, caseId);
      const browser = env.client();
      let r = await browser.get(`/api/v1/onboarding/resume?token=${encodeURIComponent(token)}`, { accept: 'text/html' });
      assert.equal(r.status, 303);
      assert.equal(r.headers.get('location'), '/onboarding/stato');
      assert.ok(browser.cookie('cp_onb'));

      r = await env.client().get(`/api/v1/onboarding/resume?token=${encodeURIComponent(token)}`, { accept: 'text/html' });
      assert.equal(r.status, 410);
      assert.match(r.text, /già stato usato/);
      assert.match(r.text, /action="\/onboarding\/nuovo-link"/);
      assert.match(r.text, /name="_csrf"/);
      assert.match(r.text, new RegExp(`name="cod_azienda" value="${tenant}"`), 'the new-link form asks the link\'s tenant');
      const expired = await linkToken(env, tenant, caseId, { now: new Date(Date.now() - 100 * 3_600_000) });
      r = await env.client().get(`/api/v1/onboarding/resume?token=${encodeURIComponent(expired)}`, { accept: 'text/html' });
      assert.equal(r.status, 410);
      assert.match(r.text, /è scaduto/);
      assert.match(r.text, new RegExp(`name="cod_azienda" value="${tenant}"`));
      r = await env.client().get('/api/v1/onboarding/resume?token=nonsense', { accept: 'text/html' });
      assert.equal(r.status, 400);
      assert.match(r.text, /non è valido/);
      assert.doesNotMatch(r.text, /name="cod_azienda"/);
    });

    it('a resume link of an erased case no longer opens anything', async () => {
      const { caseId, client, base } = await openCase(env, tenant);
      const token = await linkToken(env, tenant, caseId);
      assert.equal((await client.delete(`${base}/erase`)).status, 204);
      // The erasure removed the link's row too: the token is unknown now.
      const r = await env.client().get(`/api/v1/onboarding/resume?token=${encodeURIComponent(token)}`);
      assert.equal(r.status, 400);
      assert.equal(r.body.code, 'LINK_INVALID');
    });
  });

  describe('magic-link requests', () => {
    afterEach(clearLinkThrottle);

    it('answers the public the same whether or not the e-mail has an open case, and mails the link when it does', async () => {
      const { caseId, email } = await openCase(env, tenant);
      const after = await env.mailbox.cursor();
      const nobody = uniqueEmail('nessuno');
      const known = await env.client().post('/api/magic-link', { email: email.toUpperCase(), cod_azienda: tenant });
      const unknown = await env.client().post('/api/magic-link', { email: nobody, cod_azienda: tenant });
      const otherTenant = await env.client().post('/api/magic-link', { email, cod_azienda: other });
      for (const r of [known, unknown, otherTenant]) {
        assert.equal(r.status, 202, r.text);
        assert.deepEqual(r.body, known.body);
      }
      await settleLinkDeliveries();
      const queued = await env.ownerDb('outbox_messages').whereIn('recipient', [email, nobody]).select('kind', 'entity_id', 'recipient');
      assert.deepEqual(queued, [{ kind: 'resume', entity_id: caseId, recipient: email }], 'only the open case got a message');
      const sent = await env.mailbox.waitFor(email, { after });
      assert.deepEqual(await env.mailbox.list(nobody, after), []);
      const token = new URL(linkIn(sent)).searchParams.get('token')!;
      const c = env.client();
      const r = await c.get(`/api/v1/onboarding/resume?token=${encodeURIComponent(token)}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.case_id, caseId);
    });

    it('refuses a missing or malformed e-mail and limits requests per e-mail', async () => {
      let r = await env.client().post('/api/magic-link', {});
      assert.equal(r.status, 422);
      assert.equal(r.body.errors[0].path, 'email');
      r = await env.client().post('/api/magic-link', { email: 'non-una-email' });
      assert.equal(r.status, 422);
      r = await env.client().post('/api/magic-link', { email: 42 });
      assert.equal(r.status, 422);
      const email = uniqueEmail('insistente');
      for (let i = 0; i < 5; i++) assert.equal((await env.client().post('/api/magic-link', { email, cod_azienda: tenant })).status, 202);
      r = await env.client().post('/api/magic-link', { email, cod_azienda: tenant });
      assert.equal(r.status, 429);
      assert.ok(Number(r.headers.get('retry-after')) > 0);
    });

    it('gives staff of the tenant the link of a case; another tenant\'s case is a 422 on case_id, other roles 403, no session 401', async () => {
      const { caseId, email: caseEmail } = await openCase(env, tenant);
      const after = await env.mailbox.cursor();
      const [co, viewer, outsider] = await Promise.all([
        env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
        env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
        env.createUser({ tenant: other, roles: ['co'] }).then((u) => env.login(u)),
      ]);
      const r = await co.post('/api/magic-link', { case_id: caseId });
      assert.equal(r.status, 202, r.text);
      assert.ok(Date.parse(r.body.expires_at) > Date.now() + 71 * 3_600_000);
      assert.equal(r.body.link, undefined, 'staff never hold the applicant\'s bearer link');
      assert.match(r.body.sent_to, /^.\*\*\*@/);
      const sent = await env.mailbox.waitFor(caseEmail, { subject: /riprendere la tua pratica/, after });
      assert.match(sent.text, /L'intermediario ti invia il link/, 'the link went to the applicant');
      const token = new URL(linkIn(sent)).searchParams.get('token')!;
      const applicant = env.client();
      assert.equal((await applicant.get(`/api/v1/onboarding/resume?token=${encodeURIComponent(token)}`)).status, 200);
      const audit = await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'onboarding.link-issued', entity_id: caseId }).first();
      assert.ok(audit, 'issuing a link is audited');

      const foreign = await outsider.post('/api/magic-link', { case_id: caseId });
      assert.deepEqual([foreign.status, foreign.body.errors?.[0]?.path], [422, 'case_id'], 'a case of another tenant is named in the body: refused as if it did not exist');
      assert.equal((await viewer.post('/api/magic-link', { case_id: caseId })).status, 403);
      assert.equal((await env.client().post('/api/magic-link', { case_id: caseId })).status, 401);
      assert.equal((await co.post('/api/magic-link', { case_id: 'not-a-uuid' })).status, 422);
    });

    it('the new-link page asks for the e-mail and confirms without saying whether a case exists', async () => {
      const c = env.client();
      let r = await c.get('/onboarding/nuovo-link', { accept: 'text/html' });
      assert.equal(r.status, 200);
      r = await c.submitForm('/onboarding/nuovo-link', { email: 'sbagliata' });
      assert.equal(r.status, 422);
      assert.match(r.text, /Indirizzo e-mail non valido/);
      assert.match(r.text, /value="sbagliata"/, 'what was typed comes back');
      r = await c.submitForm('/onboarding/nuovo-link', { email: uniqueEmail(), cod_azienda: tenant });
      assert.equal(r.status, 302);
      r = await c.get('/onboarding/nuovo-link', { accept: 'text/html' });
      assert.match(r.text, /riceverai a breve un messaggio/);
    });
  });

  describe('access to a case', () => {
    it('is the session\'s case only: no session, another case, another tenant, a malformed id are all 404', async () => {
      const a = await openCase(env, tenant);
      const b = await openCase(env, tenant);
      const foreign = await openCase(env, other);
      assert.equal((await env.client().get(a.base)).status, 404);
      assert.equal((await a.client.get(b.base)).status, 404);
      assert.equal((await a.client.get(foreign.base)).status, 404);
      assert.equal((await a.client.get('/api/v1/onboarding/case/nope')).status, 404);
      assert.equal((await a.client.patch(`${b.base}/draft`, { subject_type: 'societa' })).status, 404);
      assert.equal((await foreign.client.delete(`${a.base}/erase`)).status, 404);
      const r = await a.client.get(a.base);
      assert.equal(r.status, 200);
      assert.equal(r.body.stato, 'draft');
      assert.equal(r.body.email, a.email);
      assert.deepEqual(r.body.allowed_actions.sort(), ['edit', 'erase', 'submit']);
    });
  });

  describe('sections', () => {
    let c: TestClient;
    let base: string;
    let caseId: string;
    before(async () => ({ client: c, base, caseId } = await openCase(env, tenant)));

    it('anagrafe before the subject type: stored as typed, 422 asks for the type', async () => {
      const r = await c.post(`${base}/anagrafe`, { nome: 'Mario' });
      assert.equal(r.status, 422);
      assert.equal(r.body.saved, true);
      assert.deepEqual(r.body.errors, [{ path: 'subject_type', message: 'Scegli prima il tipo di cliente' }]);
      const row = await env.ownerDb('onboarding_cases').where({ id: caseId }).first();
      assert.deepEqual(row.anagrafe, { nome: 'Mario' });
    });

    it('PATCH /draft saves any subset leniently and refuses unknown sections and wrong types', async () => {
      let r = await c.patch(`${base}/draft`, { subject_type: 'persona_fisica', anagrafe: { nome: 'Maria', data_nascita: 'ieri' }, countries: { paesi: [{ paese: 'ZZ' }] } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.tipo_soggetto, 'persona_fisica');
      assert.deepEqual(r.body.anagrafe, { nome: 'Maria', data_nascita: 'ieri' });
      assert.deepEqual(r.body.countries, { paesi: [{ paese: 'ZZ' }] });
      assert.deepEqual(r.body.steps, [0, 1, 3, 5, 6, 7, 8]);
      r = await c.patch(`${base}/draft`, { colore: 'blu' });
      assert.equal(r.status, 422);
      assert.match(r.body.errors[0].message, /colore/);
      r = await c.patch(`${base}/draft`, { subject_type: 'astronauta' });
      assert.equal(r.status, 422);
      assert.equal(r.body.errors[0].path, 'subject_type');
      r = await c.patch(`${base}/draft`, { anagrafe: 'Mario Rossi' });
      assert.equal(r.status, 422);
      r = await c.patch(`${base}/draft`, { ubo: { titolari: 'tutti' } });
      assert.equal(r.status, 422);
      r = await c.patch(`${base}/draft`, { cdd_answers: { versione: 'cdd-1999', risposte: {} } });
      assert.equal(r.status, 422);
      assert.equal(r.body.errors[0].path, 'cdd_answers.versione');
      const row = await env.ownerDb('onboarding_cases').where({ id: caseId }).first();
      assert.equal(row.tipo_soggetto, 'persona_fisica', 'the refused requests changed nothing');
    });

    it('POST anagrafe validates strictly: incomplete data is stored and answered 422 with each field; complete data 200', async () => {
      let r = await c.post(`${base}/anagrafe`, { nome: 'Mario', cognome: '', data_nascita: '2999-01-01', nazionalita: 'XX' });
      assert.equal(r.status, 422);
      assert.equal(r.body.saved, true);
      const paths = (r.body.errors as { path: string }[]).map((e) => e.path);
      for (const p of ['cognome', 'data_nascita', 'nazionalita', 'residenza', 'documento']) assert.ok(paths.includes(p), `${p} in ${paths.join(', ')}`);
      assert.equal(r.body.errors.find((e: { path: string }) => e.path === 'data_nascita').message, 'La data deve essere nel passato');
      let row = await env.ownerDb('onboarding_cases').where({ id: caseId }).first();
      assert.deepEqual(row.anagrafe, { nome: 'Mario', cognome: '', data_nascita: '2999-01-01', nazionalita: 'XX' }, 'nothing typed is lost');

      r = await c.post(`${base}/anagrafe`, personaFisica());
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.anagrafe.cognome, 'Rossi');
      r = await c.post(`${base}/anagrafe`, ['non', 'un', 'oggetto']);
      assert.equal(r.status, 422);
      row = await env.ownerDb('onboarding_cases').where({ id: caseId }).first();
      assert.equal(row.anagrafe.cognome, 'Rossi');
    });

    it('POST ubo gives each owner a stable id; a non-list is refused; incomplete owners 422 but stored', async () => {
      let r = await c.post(`${base}/ubo`, { titolari: [{ nome: 'Anna' }] });
      assert.equal(r.status, 422);
      assert.equal(r.body.saved, true);
      assert.ok(r.body.errors.some((e: { path: string }) => e.path === 'titolari.0.cognome'));
      const row = await env.ownerDb('onboarding_cases').where({ id: caseId }).first();
      assert.equal(row.ubo.length, 1);
      assert.match(row.ubo[0].id, /^[0-9a-f-]{36}$/);
      const id = row.ubo[0].id;
      r = await c.post(`${base}/ubo`, { titolari: [{ id, nome: 'Anna', cognome: 'Bianchi', data_nascita: '1970-02-02', nazionalita: 'IT', paese_residenza: 'IT', percentuale: 60, tipo_controllo: 'proprieta_diretta', pep: false }] });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.ubo.titolari[0].id, id, 'the id is kept');
      r = await c.post(`${base}/ubo`, { titolari: { nome: 'Anna' } });
      assert.equal(r.status, 422);
      r = await c.post(`${base}/ubo`, {});
      assert.equal(r.status, 422);
    });

    it('POST countries: an unknown country is stored and flagged; a valid list 200', async () => {
      let r = await c.post(`${base}/countries`, { paesi: [{ paese: 'XX', ruolo: 'clienti' }] });
      assert.equal(r.status, 422);
      assert.equal(r.body.errors[0].path, 'paesi.0.paese');
      r = await c.post(`${base}/countries`, { paesi: [{ paese: 'it', ruolo: 'sede_operativa' }, { paese: 'FR', ruolo: 'clienti' }] });
      assert.equal(r.status, 200, r.text);
      r = await c.post(`${base}/countries`, { paesi: 'Italia' });
      assert.equal(r.status, 422);
    });

    it('CDD: the versioned schema, answers stored with their version, unknown versions refused', async () => {
      let r = await c.get(`${base}/cdd/schema`);
      assert.equal(r.status, 200);
      assert.equal(r.body.versione, r.body.corrente);
      assert.ok(r.body.domande.length > 3);
      const versione = r.body.versione as string;
      const first = r.body.domande[0] as { id: string };
      r = await c.post(`${base}/cdd/answers`, { versione, risposte: { [first.id]: 'valore-inventato' } });
      assert.equal(r.status, 422);
      assert.equal(r.body.saved, true);
      assert.ok(r.body.errors.some((e: { path: string }) => e.path === `risposte.${first.id}`));
      r = await c.get(`${base}/cdd/answers`);
      assert.deepEqual(r.body, { versione, risposte: { [first.id]: 'valore-inventato' } });
      r = await c.post(`${base}/cdd/answers`, { versione: 'cdd-1999', risposte: {} });
      assert.equal(r.status, 422);
      assert.equal(r.body.errors[0].path, 'versione');
      assert.equal((await c.get(`${base}/cdd/answers`)).body.versione, versione, 'an unknown version stores nothing');
      r = await c.post(`${base}/cdd/answers`, { risposte: {} });
      assert.equal(r.status, 422);
      r = await c.get(`${base}/cdd/schema?versione=cdd-1999`);
      assert.equal(r.status, 422);
    });

    it('validation and required documents reflect the draft', async () => {
      let r = await c.get(`${base}/required-docs`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.items.map((d: { tipo: string; caricato: boolean }) => [d.tipo, d.caricato]), [['documento_identita', false]]);
      r = await c.get(`${base}/validation`);
      assert.equal(r.status, 200);
      assert.equal(r.body.ok, false);
      const paths = (r.body.issues as { path: string }[]).map((i) => i.path);
      assert.ok(paths.includes('documenti.documento_identita.soggetto'));
      assert.ok(paths.some((p) => p.startsWith('cdd_answers')));
      assert.ok(!paths.some((p) => p.startsWith('anagrafe')), 'the complete anagrafe has no issue');
    });
  });

  describe('documents', () => {
    let c: TestClient;
    let base: string;
    let caseId: string;
    before(async () => {
      ({ client: c, base, caseId } = await openCase(env, tenant, { subjectType: 'societa' }));
      const r = await c.post(`${base}/ubo`, { titolari: [{ nome: 'Anna', cognome: 'Bianchi' }] });
      assert.equal(r.status, 422);
    });

    it('stores a PDF by its content address and lists it against the requirement', async () => {
      const r = await c.upload(`${base}/documents`, { tipo: 'visura_camerale' }, { name: 'visura.pdf', type: 'application/pdf', bytes: PDF });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.mime, 'application/pdf');
      assert.equal(r.body.riferimento, 'soggetto');
      assert.equal(r.body.dimensione, PDF.length);
      const file = join(env.deps.config.documentDir, tenant, r.body.sha256.slice(0, 2), r.body.sha256);
      assert.ok(existsSync(file), 'bytes in the content-addressed store');
      const req = await c.get(`${base}/required-docs`);
      const visura = req.body.items.find((d: { tipo: string }) => d.tipo === 'visura_camerale');
      assert.equal(visura.caricato, true);
      assert.deepEqual(visura.documenti, [r.body.id]);
    });

    it('accepts an owner\'s identity document by the owner id, and a PNG through an HTML form (?_csrf=)', async () => {
      const owner = (await c.get(base)).body.ubo.titolari[0].id as string;
      let r = await c.upload(`${base}/documents`, { tipo: 'documento_identita', riferimento: owner }, { name: 'ci.png', type: 'image/png', bytes: PNG }, 'query');
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.mime, 'image/png');
      assert.equal(r.body.riferimento, owner);
      r = await c.upload(`${base}/documents`, { tipo: 'documento_identita' }, { name: 'ci.jpg', type: 'application/octet-stream', bytes: JPEG });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.mime, 'image/jpeg');
    });

    it('refuses mislabelled files (422), other formats (415), oversized files (413), bad fields (422), no CSRF token (403)', async () => {
      const count = async () => Number((await env.ownerDb('onboarding_documents').where({ case_id: caseId }).count('* as n'))[0]!.n);
      const before = await count();
      let r = await c.upload(`${base}/documents`, { tipo: 'altro' }, { name: 'foto.pdf', type: 'application/pdf', bytes: PNG });
      assert.equal(r.status, 422, r.text);
      assert.equal(r.body.errors[0].path, 'file');
      assert.match(r.body.errors[0].message, /dichiarato come application\/pdf è in realtà image\/png/);
      r = await c.upload(`${base}/documents`, { tipo: 'altro' }, { name: 'foto.pdf', type: 'application/octet-stream', bytes: PNG });
      assert.equal(r.status, 422, 'the name\'s extension is the label when the type is not given');
      r = await c.upload(`${base}/documents`, { tipo: 'altro' }, { name: 'note.pdf', type: 'application/pdf', bytes: Buffer.from('solo testo, niente PDF\n') });
      assert.equal(r.status, 415, r.text);
      assert.equal(r.body.code, 'UNSUPPORTED_MEDIA_TYPE');
      assert.match(r.body.detail, /PDF, JPEG o PNG/);
      const big = Buffer.alloc(env.deps.config.uploadMaxBytes + 1, 0x20);
      PDF.copy(big);
      r = await c.upload(`${base}/documents`, { tipo: 'altro' }, { name: 'grande.pdf', type: 'application/pdf', bytes: big });
      assert.equal(r.status, 413, r.text);
      assert.equal(r.body.code, 'PAYLOAD_TOO_LARGE');
      assert.match(r.headers.get('content-type') ?? '', /problem\+json/);
      r = await c.upload(`${base}/documents`, { tipo: 'passaporto_lunare' }, { name: 'a.pdf', type: 'application/pdf', bytes: PDF });
      assert.equal(r.status, 422);
      assert.equal(r.body.errors[0].path, 'tipo');
      r = await c.upload(`${base}/documents`, { tipo: 'documento_identita', riferimento: '00000000-0000-4000-8000-000000000000' }, { name: 'a.pdf', type: 'application/pdf', bytes: PDF });
      assert.equal(r.status, 422);
      assert.equal(r.body.errors[0].path, 'riferimento');
      r = await c.upload(`${base}/documents`, { tipo: 'altro' });
      assert.equal(r.status, 422);
      assert.equal(r.body.errors[0].path, 'file');
      r = await c.upload(`${base}/documents`, { tipo: 'altro' }, { name: 'a.pdf', type: 'application/pdf', bytes: PDF }, 'none');
      assert.equal(r.status, 403);
      assert.equal(await count(), before, 'nothing refused was recorded');
    });

    it('another case\'s session cannot upload to or delete from this case', async () => {
      const intruder = await openCase(env, tenant);
      const r = await intruder.client.upload(`${base}/documents`, { tipo: 'altro' }, { name: 'a.pdf', type: 'application/pdf', bytes: PDF });
      assert.equal(r.status, 404);
      const doc = (await c.get(base)).body.documents[0].id as string;
      assert.equal((await intruder.client.delete(`${base}/documents/${doc}`)).status, 404);
      assert.equal((await intruder.client.delete(`${intruder.base}/documents/${doc}`)).status, 404, 'a document of another case is not found in one\'s own');
    });

    it('deletes a document (and its bytes when nothing else uses them); an unknown id is 404', async () => {
      const up = await c.upload(`${base}/documents`, { tipo: 'bilancio' }, { name: 'bilancio.pdf', type: 'application/pdf', bytes: Buffer.concat([PDF, Buffer.from('% bilancio 2025\n')]) });
      assert.equal(up.status, 201, up.text);
      const file = join(env.deps.config.documentDir, tenant, up.body.sha256.slice(0, 2), up.body.sha256);
      const r = await c.delete(`${base}/documents/${up.body.id}`);
      assert.equal(r.status, 200, r.text);
      assert.ok(!r.body.documents.some((d: { id: string }) => d.id === up.body.id));
      assert.ok(!existsSync(file), 'unreferenced bytes leave the store');
      assert.equal((await c.delete(`${base}/documents/${up.body.id}`)).status, 404);
      assert.equal((await c.delete(`${base}/documents/nope`)).status, 404);
    });
  });

  describe('wallets', () => {
    let c: TestClient;
    let base: string;
    let caseId: string;
    let proved: ReturnType<typeof provenEthWallet>;
    before(async () => ({ client: c, base, caseId } = await openCase(env, tenant, { subjectType: 'persona_fisica' })));

    it('verifies an Ethereum personal_sign proof of the case\'s own message and stores it as verified', async () => {
      proved = provenEthWallet(caseId, tenant);
      const r = await c.post(`${base}/wallets`, proved);
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.prova.verificata, true);
      assert.equal(r.body.stato, 'pending');
      assert.equal(r.body.volume_annuo_eur, 5000);
    });

    it('refuses a valid signature over any other text (a published one proves nothing here): 422 on prova.messaggio with the text to sign', async () => {
      const r = await c.post(`${base}/wallets`, {
        rete: 'ETH', indirizzo: ETH_DOC.indirizzo, tipo: 'self_hosted', volume_annuo_eur: 5000,
        prova: { metodo: 'firma_messaggio', messaggio: ETH_DOC.messaggio, firma: ETH_DOC.firma },
      });
      assert.equal(r.status, 422, r.text);
      assert.deepEqual(r.body.errors.map((e: { path: string }) => e.path), ['prova.messaggio']);
      assert.ok(r.body.errors[0].message.includes(walletProofMessage(caseId, tenant, 'ETH', ETH_DOC.indirizzo)), r.body.errors[0].message);
      // Another case's message, signed by the right key, is refused too.
      const elsewhere = provenEthWallet('00000000-0000-4000-8000-000000000000', tenant);
      assert.equal((await c.post(`${base}/wallets`, elsewhere)).status, 422);
      assert.ok(!(await c.get(base)).body.wallets.some((w: { indirizzo: string }) => w.indirizzo.toLowerCase() === ETH_DOC.indirizzo.toLowerCase()));
    });

    it('refuses a signature that does not match the address: 422 on prova.firma, nothing stored', async () => {
      const before = (await c.get(base)).body.wallets.length;
      const indirizzo = '0x0000000000000000000000000000000000000001';
      const r = await c.post(`${base}/wallets`, {
        rete: 'ERC20', indirizzo, tipo: 'self_hosted', volume_annuo_eur: 5000,
        prova: { metodo: 'firma_messaggio', messaggio: walletProofMessage(caseId, tenant, 'ERC20', indirizzo), firma: ETH_DOC.firma },
      });
      assert.equal(r.status, 422);
      assert.deepEqual(r.body.errors.map((e: { path: string }) => e.path), ['prova.firma']);
      assert.equal((await c.get(base)).body.wallets.length, before);
    });

    it('stores a chain it cannot check with verificata null, and a custodial wallet without proof', async () => {
      const trx = 'TJ9mRAhHq4uK6sBz3c1bBv1QGxZ2Yt4jE7';
      let r = await c.post(`${base}/wallets`, {
        rete: 'TRX', indirizzo: trx, tipo: 'self_hosted', volume_annuo_eur: 2000,
        prova: { metodo: 'firma_messaggio', messaggio: walletProofMessage(caseId, tenant, 'TRX', trx), firma: 'abcdef' },
      });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.prova.verificata, null);
      r = await c.post(`${base}/wallets`, { rete: 'BTC', indirizzo: '1F3sAm6ZtwLAUnj7d38pGFxtP3RVEvtsbV', tipo: 'custodial', vasp_nome: 'Exchange S.p.A.' });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.prova, null);
    });

    it('refuses missing fields, wrong types, malformed addresses and duplicates', async () => {
      let r = await c.post(`${base}/wallets`, {});
      assert.equal(r.status, 422);
      const paths = (r.body.errors as { path: string }[]).map((e) => e.path);
      assert.ok(paths.includes('rete') && paths.includes('indirizzo') && paths.includes('tipo'), paths.join(','));
      r = await c.post(`${base}/wallets`, { rete: 'ETH', indirizzo: 12345, tipo: 'self_hosted' });
      assert.equal(r.status, 422);
      r = await c.post(`${base}/wallets`, { rete: 'ETH', indirizzo: '0x12345678901234567890', tipo: 'self_hosted' });
      assert.equal(r.status, 422);
      assert.equal(r.body.errors[0].path, 'indirizzo');
      r = await c.post(`${base}/wallets`, { rete: 'BTC', indirizzo: 'bc1notreallyanaddress0000', tipo: 'self_hosted' });
      assert.equal(r.status, 422);
      r = await c.post(`${base}/wallets`, { rete: 'ETH', indirizzo: proved.indirizzo.toUpperCase().replace(/^0X/, '0x'), tipo: 'self_hosted' });
      assert.equal(r.status, 422);
      assert.match(r.body.errors[0].message, /già stato indicato/);
      r = await c.post(`${base}/wallets`, { rete: 'ETH', indirizzo: '0x1111111111111111111111111111111111111111', tipo: 'custodial' });
      assert.equal(r.status, 422);
      assert.equal(r.body.errors[0].path, 'vasp_nome');
    });
  });

  it('documents every applicant route in the OpenAPI document (the upload as multipart)', async () => {
    const r = await env.client().get('/api/openapi.json');
    assert.equal(r.status, 200);
    const paths = r.body.paths as Record<string, Record<string, { summary: string; requestBody?: { content: Record<string, unknown> } }>>;
    const b = '/api/v1/onboarding/case/{id}';
    const expected: [string, string][] = [
      [b, 'get'], [`${b}/anagrafe`, 'post'], [`${b}/cdd/answers`, 'get'], [`${b}/cdd/answers`, 'post'], [`${b}/cdd/schema`, 'get'],
      [`${b}/complete-submission`, 'post'], [`${b}/countries`, 'post'], [`${b}/documents`, 'post'], [`${b}/documents/{docId}`, 'delete'],
      [`${b}/draft`, 'patch'], [`${b}/erase`, 'delete'], [`${b}/required-docs`, 'get'], [`${b}/submit`, 'post'], [`${b}/travel-rule`, 'post'],
      [`${b}/travel-rule`, 'delete'], [`${b}/travel-rule/complete`, 'post'], [`${b}/ubo`, 'post'], [`${b}/validation`, 'get'], [`${b}/wallets`, 'post'],
      ['/api/v1/onboarding/resume', 'get'], ['/api/magic-link', 'post'],
    ];
    for (const [path, method] of expected) assert.ok(paths[path]?.[method], `${method.toUpperCase()} ${path}`);
    assert.ok(paths[`${b}/documents`]!.post!.requestBody!.content['multipart/form-data']);
    assert.match(paths[`${b}/anagrafe`]!.post!.summary, /bozza/);
  });

});
