import assert from 'node:assert/strict';
import { settleLinkDeliveries } from '../../src/domains/onboarding/onboarding.links';
import { onboardingEsignToken } from '../../src/domains/onboarding/onboarding.tokens';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { linkIn } from '../helpers/mailbox';
import type { TestClient, TestResponse } from '../helpers/http-client';
import { completeDraft, provenEthWallet, type BuiltCase } from '../helpers/onboarding';
import { linkToken, openCase, PDF, PNG, uniqueEmail } from './onboarding-fixtures';

const ADMIN = '/api/v1/admin/onboarding/cases';
const html = { accept: 'text/html' };

/**
 * What a penetration tester would try against the onboarding surface: wrong shapes on
 * every applicant route and page, cross-case and cross-tenant ids, staff and applicant
 * sessions used where the other belongs, file names and proofs made to mislead.
 */
describe('onboarding: hostile input and isolation', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let co: TestClient;
  let outsider: TestClient;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    [co, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'analyst'] }).then((u) => env.login(u)),
    ]);
  });

  /** Raw bytes and headers of a staff download (the test client reads bodies as text). */
  const download = async (client: TestClient, path: string) => {
    const res = await fetch(env.baseUrl + path, { headers: { cookie: `cp_sid=${client.cookie('cp_sid')}` } });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  after(() => env.ownerDb('login_throttle').where('key', 'like', 'magic-link:%').delete());

  /** Every answer below 500; the failures are listed so one run shows them all. */
  const noServerErrors = (results: [string, TestResponse][]) => {
    const bad = results.filter(([, r]) => r.status >= 500).map(([what, r]) => `${what} -> ${r.status} ${r.text.slice(0, 200)}`);
    assert.deepEqual(bad, []);
  };

  it('answers wrong shapes on the applicant API with 4xx, never 5xx', async () => {
    const { client: c, base } = await openCase(env, tenant, { subjectType: 'societa' });
    const long = 'x'.repeat(200_000);
    const deep = JSON.parse(`${'{"a":'.repeat(200)}1${'}'.repeat(200)}`);
    const out: [string, TestResponse][] = [];
    const run = async (what: string, p: Promise<TestResponse>) => { out.push([what, await p]); };
    for (const body of [[], 'testo', 42, null, { nome: long }, deep, { residenza: [1, 2] }]) {
      await run(`anagrafe ${JSON.stringify(body).slice(0, 40)}`, c.post(`${base}/anagrafe`, body));
    }
    const raw = (path: string, text: string) => c.request('POST', path, { body: text, headers: { 'content-type': 'application/json' } });
    await run('anagrafe __proto__', raw(`${base}/anagrafe`, '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"nome":"x"}'));
    await run('ubo __proto__', raw(`${base}/ubo`, '{"titolari":[{"__proto__":{"polluted":1}}]}'));
    await run('broken json', raw(`${base}/anagrafe`, '{"nome":'));
    for (const body of [{ titolari: [1, 'a', null] }, { titolari: [{ id: ['x'] }] }, { titolari: [{ id: 42, percentuale: 'molto' }] }, { titolari: Array(30).fill({}) }, { titolari: [{ nome: long }] }]) {
      await run(`ubo ${JSON.stringify(body).slice(0, 40)}`, c.post(`${base}/ubo`, body));
    }
    for (const body of [{ paesi: [{ paese: ['IT'], ruolo: {} }] }, { paesi: [null] }, { paesi: {} }]) await run('countries', c.post(`${base}/countries`, body));
    for (const body of [{ versione: [], risposte: [] }, { versione: 'cdd-2025-1', risposte: { scopo_rapporto: ['a'], operazioni_mensili: 'tante' } }, { versione: null }]) {
      await run('cdd', c.post(`${base}/cdd/answers`, body));
    }
    await run('cdd schema array', c.get(`${base}/cdd/schema?versione=a&versione=b`));
    for (const body of [{ subject_type: ['societa'] }, { ubo: [] }, { countries: { paesi: 'x' } }, { cdd_answers: { risposte: 'x' } }, []]) {
      await run('draft', c.patch(`${base}/draft`, body));
    }
    for (const body of [
      { rete: ['ETH'] }, { rete: 'ETH', indirizzo: '0x' + 'a'.repeat(40), tipo: 'self_hosted', prova: [] },
      { rete: 'ETH', indirizzo: '0x' + 'b'.repeat(40), tipo: 'self_hosted', prova: { metodo: 'firma_messaggio', messaggio: 123, firma: {} } },
      { rete: 'ETH', indirizzo: '0x' + 'c'.repeat(40), tipo: 'self_hosted', volume_annuo_eur: '1e400' },
      { rete: 'BTC', indirizzo: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', tipo: 'self_hosted', prova: { metodo: 'firma_messaggio', messaggio: 'm', firma: 'A'.repeat(500) } },
    ]) await run(`wallet ${JSON.stringify(body).slice(0, 60)}`, c.post(`${base}/wallets`, body));
    for (const body of [{ titolare_wallet: ['true'] }, { luogo: { a: 1 } }, []]) await run('travel rule', c.post(`${base}/travel-rule`, body));
    await run('travel rule complete', c.post(`${base}/travel-rule/complete`, {}));
    await run('travel rule reset', c.delete(`${base}/travel-rule`));
    await run('documents delete junk', c.delete(`${base}/documents/${encodeURIComponent('../../etc/passwd')}`));
    await run('upload two files', (async () => {
      const fd = new FormData();
      fd.append('tipo', 'altro');
      fd.append('tipo', 'bilancio');
      fd.append('riferimento', 'soggetto');
      fd.append('riferimento', '../x');
      fd.append('file', new Blob([PDF], { type: 'application/pdf' }), '../../a.pdf');
      fd.append('file', new Blob([PDF], { type: 'application/pdf' }), 'b.pdf');
      return c.request('POST', `${base}/documents`, { body: fd, headers: { 'x-csrf-token': await c.csrfToken() } });
    })());
    await run('upload repeated fields', c.upload(`${base}/documents`, { tipo: 'altro', 'riferimento': 'soggetto', extra1: 'a', extra2: 'b', extra3: 'c', extra4: 'd', extra5: 'e' }, { name: 'a.pdf', type: 'application/pdf', bytes: PDF }));
    await run('upload not multipart', c.request('POST', `${base}/documents`, { form: { tipo: 'altro' }, headers: { 'x-csrf-token': await c.csrfToken() } }));
    await run('upload broken multipart', c.request('POST', `${base}/documents`, { body: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF', headers: { 'content-type': 'multipart/form-data; boundary=x', 'x-csrf-token': await c.csrfToken() } }));
    await run('validation', c.get(`${base}/validation`));
    await run('submit incomplete', c.post(`${base}/submit`, { extra: true }));
    await run('complete-submission in draft', c.post(`${base}/complete-submission`, {}));
    await run('resume array', c.get('/api/v1/onboarding/resume?token=a&token=b'));
    await run('resume junk', c.get(`/api/v1/onboarding/resume?token=${'a.'.repeat(30)}`));
    for (const body of [{ email: ['a@b.it'] }, { email: 'a@b.it', cod_azienda: ['X'] }, { email: 'a@b.it', cod_azienda: 'a b c' }, { case_id: 'x' }, { case_id: '00000000-0000-4000-8000-000000000000' }, []]) {
      await run(`magic link ${JSON.stringify(body)}`, env.client().post('/api/magic-link', body));
    }
    noServerErrors(out);
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
  });

  it('answers odd form posts on the wizard pages with a page, never 5xx, and without CSRF with 403', async () => {
    const c = env.client();
    const out: [string, TestResponse][] = [];
    const form = (path: string, f: Record<string, string | string[]>, from = path) => c.submitForm(path, f, from);
    const run = async (what: string, p: Promise<TestResponse>) => { out.push([what, await p]); };
    const landing = `/onboarding/?azienda=${tenant}`;
    await run('start arrays', form('/onboarding/', { email: [uniqueEmail(), uniqueEmail()], privacy: ['true', 'x'], azienda: [tenant, 'X'] }, landing));
    await run('start long', form('/onboarding/', { email: `${'a'.repeat(300)}@x.it`, privacy: 'true', azienda: 'Z'.repeat(100) }, landing));
    await run('resume arrays', form('/onboarding/riprendi', { email: ['a@b.it', 'c@d.it'], azienda: [tenant] }, landing));
    await run('new link arrays', form('/onboarding/nuovo-link', { email: ['a@b.it', 'x'], cod_azienda: ['a', 'b'] }));
    const r = await form('/onboarding/', { email: uniqueEmail(), privacy: 'true', azienda: tenant }, landing);
    assert.equal(r.status, 302, r.text);
    const long = 'y'.repeat(100_000);
    const step = (n: number | string, f: Record<string, string | string[]>) => run(`step ${n} ${JSON.stringify(f).slice(0, 60)}`, form(`/onboarding/step/${n}`, f, '/onboarding/step/0'));
    await step(0, { subject_type: ['societa', 'persona_fisica'] });
    await step(0, { subject_type: 'astronauta' });
    await step(0, { subject_type: 'societa' });
    const forms1: Record<string, string | string[]>[] = [
      { nome: ['a', 'b'], 'sede.via': ['x', 'y'] }, { 'a..b': 'x', '.x': 'y', 'sede.': 'z' }, { '__proto__.polluted': 'x', 'constructor.prototype.x': 'y' },
      { 'sede[via]': 'x', 'legale_rappresentante[documento][numero]': 'y' }, { sede: 'stringa', 'sede.via': 'x' }, { denominazione: long },
      { 'a.b.c.d.e.f.g.h.i.j.k.l.m.n': 'deep' },
    ];
    for (const f of forms1) await step(1, f);
    const forms2: Record<string, string | string[]>[] = [
      { 'titolari.0.nome': ['a', 'b'], 'titolari.999.nome': 'z' }, { 'titolari.x.nome': 'a' }, { titolari: 'testo' }, { 'titolari.0.id': 'non-uuid', 'titolari.0.nome': 'a' },
      { 'titolari.0': 'x', 'titolari.0.nome': 'y' }, { azione: 'rimuovi-99' }, { azione: ['aggiungi', 'continua'] }, { 'titolari.0.percentuale': 'NaN' },
    ];
    for (const f of forms2) await step(2, f);
    await step(5, { versione: ['a', 'b'], 'risposte.scopo_rapporto': ['x', 'y'], risposte: 'z' });
    await step(5, { versione: 'cdd-1999' });
    await step(6, { 'paesi.0.paese': ['IT', 'FR'], 'paesi.0.ruolo': 'x' });
    await step(3, { qualunque: 'cosa' });
    await step(8, { azione: 'invia' });
    await step('9', {});
    await step('01', {});
    await run('document delete junk', form('/onboarding/documenti/..%2F..%2Fx/elimina', { passo: ['3', '4'] }, '/onboarding/step/3'));
    await run('document upload urlencoded', form('/onboarding/documenti?passo=4', { tipo: 'altro' }, '/onboarding/step/4'));
    await run('wallet shapes', form('/onboarding/wallet', { rete: ['ETH', 'BTC'], indirizzo: ['a', 'b'], prova: 'x', 'prova.metodo': ['firma_messaggio'], 'prova.firma': long.slice(0, 1000) }, '/onboarding/step/7'));
    await run('wallet message', form('/onboarding/wallet', { azione: 'messaggio', rete: ['ETH'], indirizzo: ['x'] }, '/onboarding/step/7'));
    await run('travel rule arrays', form('/onboarding/travel-rule/firma', { titolare_wallet: ['true', 'false'], luogo: ['a', 'b'] }, '/onboarding/step/7'));
    await run('travel rule complete', form('/onboarding/travel-rule/completa', {}, '/onboarding/step/7'));
    await run('travel rule reset', form('/onboarding/travel-rule/annulla', {}, '/onboarding/step/7'));
    await run('status sign', form('/onboarding/stato/firma', {}, '/onboarding/stato'));
    await run('status erase arrays', form('/onboarding/stato/cancella', { conferma: [] }, '/onboarding/stato'));
    await run('row fragment', c.get('/onboarding/step/2/riga?indice=a&indice=b', { accept: 'text/html', 'HX-Request': 'true' }));
    noServerErrors(out);

    for (const path of ['/onboarding/step/1', '/onboarding/wallet', '/onboarding/stato/cancella', '/onboarding/travel-rule/firma']) {
      const r = await c.request('POST', path, { form: { nome: 'x', conferma: 'si' }, headers: { accept: 'text/html' } });
      assert.equal(r.status, 403, `${path} without CSRF token`);
    }
    const still = await c.get('/onboarding/stato', { accept: 'text/html' });
    assert.equal(still.status, 200);
    assert.doesNotMatch(still.text, /Cancellata/, 'the erase without a token did nothing');
  });

  describe('isolation between cases, tenants and kinds of session', () => {
    let a: BuiltCase;
    let b: Awaited<ReturnType<typeof openCase>>;
    let docA: string;
    let docB: string;
    let walletB: string;
    let signingB: string;

    before(async () => {
      a = await completeDraft(env, tenant);
      b = await openCase(env, tenant, { subjectType: 'persona_fisica' });
      const up = await b.client.upload(`${b.base}/documents`, { tipo: 'documento_identita' }, { name: 'ci.png', type: 'image/png', bytes: PNG });
      assert.equal(up.status, 201, up.text);
      docB = up.body.id;
      const w = await b.client.post(`${b.base}/wallets`, provenEthWallet(b.caseId, tenant));
      assert.equal(w.status, 201, w.text);
      walletB = w.body.id;
      const tr = await b.client.post(`${b.base}/travel-rule`, { titolare_wallet: true, fondi_leciti: true, aggiornamento: true, luogo: 'Roma' });
      assert.equal(tr.status, 201, tr.text);
      signingB = tr.body.signing_path;
      docA = (await co.get(`${ADMIN}/${a.caseId}`)).body.documents[0].id;
    });

    it('the admin routes find a document or wallet only under its own case: another case\'s id in this case\'s URL is 404', async () => {
      assert.equal((await download(co, `${ADMIN}/${a.caseId}/documents/${docA}/download`)).status, 200);
      assert.equal((await download(co, `${ADMIN}/${a.caseId}/documents/${docB}/download`)).status, 404);
      assert.equal((await download(co, `${ADMIN}/${b.caseId}/documents/${docA}/download`)).status, 404);
      assert.equal((await download(outsider, `${ADMIN}/${b.caseId}/documents/${docB}/download`)).status, 404);
      for (const act of ['verify', 'revoke']) {
        assert.equal((await co.post(`${ADMIN}/${a.caseId}/wallets/${walletB}/${act}`, { reason: 'prova' })).status, 404, `${act} through another case`);
        assert.equal((await outsider.post(`${ADMIN}/${b.caseId}/wallets/${walletB}/${act}`, { reason: 'prova' })).status, 404, `${act} from another tenant`);
      }
      const wb = await env.ownerDb('onboarding_wallets').where({ id: walletB }).first();
      assert.equal(wb.stato, 'pending', 'nothing happened to the wallet');
      const downloads = await env.ownerDb('audit_events').where({ action: 'onboarding.document.download' }).whereIn('entity_id', [docA, docB]);
      assert.deepEqual(downloads.map((e) => e.entity_id), [docA], 'only the download that happened is audited');
    });

    it('a staff session is no applicant session, and an applicant cookie opens no staff route', async () => {
      assert.equal((await co.get(b.base)).status, 404);
      assert.equal((await co.post(`${b.base}/anagrafe`, { nome: 'Intruso' })).status, 404);
      assert.equal((await co.delete(`${b.base}/erase`)).status, 404);
      const page = await co.get('/onboarding/stato', html);
      assert.match(page.text, /Riprendi la tua richiesta/, 'the wizard does not know a staff user');
      assert.equal((await b.client.get(ADMIN)).status, 401);
      assert.equal((await b.client.get(`${ADMIN}/${b.caseId}`)).status, 401);
      assert.equal((await download(b.client, `${ADMIN}/${b.caseId}/documents/${docB}/download`)).status, 401);
      assert.equal((await b.client.post('/api/magic-link', { case_id: b.caseId })).status, 401, 'no staff link for an applicant');
      const admin = await b.client.get('/admin/onboarding/cases', html);
      assert.notEqual(admin.status, 200);
      assert.doesNotMatch(admin.text, new RegExp(b.email));
    });

    it('the derived signing token reaches only the applicant\'s session: not the reviewers\' answers, pages or the audit trail', async () => {
      const ceremonyId = signingB.match(/ceremony\/([0-9a-f-]{36})/)![1]!;
      const token = onboardingEsignToken(env.deps.config.sessionSecret, ceremonyId);
      assert.ok(signingB.endsWith(encodeURIComponent(token)));
      const own = await b.client.get(b.base);
      assert.equal(own.body.travel_rule.signing_path, signingB);
      const staffJson = await co.get(`${ADMIN}/${b.caseId}`);
      assert.equal(staffJson.status, 200);
      assert.ok(staffJson.body.ceremonies.some((x: { id: string }) => x.id === ceremonyId));
      const staffPage = await co.get(`/admin/onboarding/cases/${b.caseId}`, html);
      assert.equal(staffPage.status, 200);
      const stranger = await openCase(env, tenant);
      const strangerView = await stranger.client.get(stranger.base);
      for (const [what, text] of [['staff JSON', staffJson.text], ['staff page', staffPage.text], ['another applicant', strangerView.text]] as const) {
        assert.ok(!text.includes(token) && !text.includes(encodeURIComponent(token)), `no signing token in ${what}`);
      }
      const audit = await env.ownerDb('audit_events').where({ cod_azienda: tenant }).select('data');
      assert.ok(!JSON.stringify(audit).includes(token), 'no signing token in the audit trail');
      const ceremony = await env.ownerDb('esign_ceremonies').where({ id: ceremonyId }).first();
      assert.notEqual(ceremony.token_hash, token, 'only the hash is stored');
    });

    it('the reviewer\'s page shows what the applicant typed as text, never as markup', async () => {
      const xss = '<script>alert(1)</script><img src=x onerror=alert(2)>';
      const r = await b.client.patch(`${b.base}/draft`, { anagrafe: { nome: xss, cognome: '"><svg onload=alert(3)>', [`${xss}campo`]: xss } });
      assert.equal(r.status, 200, r.text);
      const up = await b.client.upload(`${b.base}/documents`, { tipo: 'altro' }, { name: '<img src=x onerror=alert(4)>.pdf', type: 'application/pdf', bytes: PDF });
      assert.equal(up.status, 201, up.text);
      for (const path of [`/admin/onboarding/cases/${b.caseId}`, `/admin/onboarding/cases?q=${encodeURIComponent('<script>')}`, '/onboarding/stato', '/onboarding/step/8']) {
        const page = await (path.startsWith('/admin') ? co : b.client).get(path, html);
        assert.equal(page.status, 200, path);
        assert.doesNotMatch(page.text, /<script>alert|<img src=x|<svg onload/, path);
      }
      assert.match((await co.get(`/admin/onboarding/cases/${b.caseId}`, html)).text, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    });

    it('answers with Cache-Control: no-store wherever the applicant\'s data or links are shown', async () => {
      for (const [client, path] of [[b.client, b.base], [b.client, '/onboarding/stato'], [b.client, '/onboarding/step/7'], [co, `${ADMIN}/${b.caseId}`], [co, `/admin/onboarding/cases/${b.caseId}`]] as const) {
        const r = await client.get(path, path.startsWith('/api') ? undefined : html);
        assert.equal(r.status, 200, path);
        assert.match(r.headers.get('cache-control') ?? '', /no-store/, path);
      }
    });
  });

  describe('links', () => {
    it('a resume link works once even when clicked many times at the same moment; a tampered one opens nothing', async () => {
      const { caseId } = await openCase(env, tenant);
      const token = await linkToken(env, tenant, caseId);
      const clients = Array.from({ length: 6 }, () => env.client());
      const answers = await Promise.all(clients.map((c) => c.get(`/api/v1/onboarding/resume?token=${encodeURIComponent(token)}`)));
      assert.deepEqual(answers.map((r) => r.status).sort(), [200, 410, 410, 410, 410, 410]);
      assert.equal(clients.filter((c) => c.cookie('cp_onb')).length, 1, 'one session only');

      // The same link pointed at another tenant's case (payload changed, signature kept) is refused.
      const foreign = await openCase(env, other);
      const fresh = await linkToken(env, tenant, caseId);
      const [h, p, sig] = fresh.split('.');
      const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
      const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, az: other, sub: foreign.caseId })).toString('base64url')}.${sig}`;
      const r = await env.client().get(`/api/v1/onboarding/resume?token=${encodeURIComponent(forged)}`);
      assert.equal(r.status, 400);
      assert.equal(r.body.code, 'LINK_INVALID');
    });

    it('audits every link made and used, and keeps the tokens and the applicant\'s personal data out of the audit trail', async () => {
      const email = uniqueEmail('riservata');
      const { caseId, client } = await openCase(env, tenant, { email, subjectType: 'persona_fisica' });
      await client.post(`/api/v1/onboarding/case/${caseId}/anagrafe`, { nome: 'Ermenegilda', cognome: 'Pancrazi', codice_fiscale: 'PNCRNG80A41F205X' });
      const after = await env.mailbox.cursor();
      assert.equal((await env.client().post('/api/magic-link', { email, cod_azienda: tenant })).status, 202);
      await settleLinkDeliveries();
      const sent = await env.mailbox.waitFor(email, { after });
      const token = new URL(linkIn(sent)).searchParams.get('token')!;
      const staffLink = await co.post('/api/magic-link', { case_id: caseId });
      assert.equal(staffLink.status, 202, staffLink.text);
      const staffToken = new URL(linkIn(await env.mailbox.waitFor(email, { after: sent.seq }))).searchParams.get('token')!;
      assert.equal((await env.client().get(`/api/v1/onboarding/resume?token=${encodeURIComponent(token)}`)).status, 200);
      const events = await env.ownerDb('audit_events').where({ cod_azienda: tenant, entity_id: caseId }).orderBy('id').select('action', 'actor', 'data');
      assert.ok(events.some((e) => e.action === 'onboarding.link-issued'));
      assert.ok(events.some((e) => e.action === 'onboarding.link' && e.actor === 'cliente' && e.data.purpose === 'resume'), 'the link asked for by e-mail');
      assert.equal(events.filter((e) => e.action === 'onboarding.link-used').length, 2, 'the fixture\'s link and the e-mailed one');
      const text = JSON.stringify(events);
      for (const secret of [token, staffToken, email, 'Ermenegilda', 'Pancrazi', 'PNCRNG80A41F205X']) assert.ok(!text.includes(secret), `audit data without ${secret.slice(0, 12)}…`);
    });
  });

  describe('uploads and owners', () => {
    it('keeps a Unicode file name as typed (API and form) and downloads it under a header that cannot be broken', async () => {
      const { client: c, base, caseId } = await openCase(env, tenant, { subjectType: 'persona_fisica' });
      const name = 'Visura società – 2025.pdf';
      let r = await c.upload(`${base}/documents`, { tipo: 'altro' }, { name, type: 'application/pdf', bytes: PDF });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.nome_file, name);
      const trap = 'ａ＂; filename＝trappola.html＼‮fdp.pdf';
      r = await c.upload('/onboarding/documenti?passo=3', { tipo: 'documento_identita', riferimento: 'soggetto' }, { name: trap, type: 'image/png', bytes: PNG }, 'query');
      assert.equal(r.status, 302, r.text.slice(0, 500));
      const docs = (await co.get(`${ADMIN}/${caseId}`)).body.documents as { id: string; tipo: string; nome_file: string }[];
      assert.ok(docs.some((d) => d.nome_file === name));
      const trapped = docs.find((d) => d.tipo !== 'altro' && d.nome_file.startsWith('ａ＂'))!;
      assert.ok(trapped, JSON.stringify(docs));
      const dl = await download(co, `${ADMIN}/${caseId}/documents/${trapped.id}/download`);
      assert.equal(dl.status, 200);
      const cd = dl.headers.get('content-disposition')!;
      const m = cd.match(/^attachment; filename="([^"]*)"; filename\*=UTF-8''(\S+)$/);
      assert.ok(m, cd);
      assert.doesNotMatch(m[1]!, /[\\/;]/, cd);
      assert.ok(!decodeURIComponent(m[2]!).includes('\u202e'), 'no bidi override in the name');
      assert.ok(decodeURIComponent(m[2]!).endsWith('.png'), 'the extension follows the sniffed type');
    });

    it('gives two owners sent with the same id two ids: each still needs an identity document', async () => {
      const { client: c, base } = await openCase(env, tenant, { subjectType: 'societa' });
      const id = '11111111-1111-4111-8111-111111111111';
      const owner = { nome: 'Primo', cognome: 'Socio', data_nascita: '1970-01-01', nazionalita: 'IT', paese_residenza: 'IT', percentuale: 40, tipo_controllo: 'proprieta_diretta', pep: false };
      const r = await c.post(`${base}/ubo`, { titolari: [{ ...owner, id }, { ...owner, id, nome: 'Secondo' }] });
      assert.equal(r.status, 200, r.text);
      const ids = r.body.ubo.titolari.map((t: { id: string }) => t.id);
      assert.equal(ids[0], id, 'the first keeps its id');
      assert.notEqual(ids[1], id);
      const required = r.body.required_documents.filter((d: { tipo: string; riferimento: string }) => d.tipo === 'documento_identita' && d.riferimento !== 'soggetto');
      assert.deepEqual(required.map((d: { riferimento: string }) => d.riferimento).sort(), [...ids].sort());
      const up = await c.upload(`${base}/documents`, { tipo: 'documento_identita', riferimento: id }, { name: 'ci.png', type: 'image/png', bytes: PNG });
      assert.equal(up.status, 201, up.text);
      const v = await c.get(`${base}/validation`);
      assert.ok(v.body.issues.some((i: { path: string }) => i.path === `documenti.documento_identita.${ids[1]}`), 'the second owner\'s document is still missing');
    });
  });
});
