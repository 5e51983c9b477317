import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyAuditChain } from '../../src/domains/audit/audit.chain';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { caseInReview, waitForStatus } from '../helpers/onboarding';

const SHARED = join(process.cwd(), '..', 'shared', 'data', 'sanctions');
const UN_PERSON: Record<string, string> = { nome: 'Eric Badege', tipo: 'person', data_nascita: '1971', nazionalita: 'CD' };
const WALLET = '0x4F47BC496083C727C5FBE3CE9CDF2B0F6496270C';
/** An onboarding submission is screened against the same lists (UN and OFAC crypto from ../shared/data). */
const UN_LISTED_OWNER = { nome: 'Eric', cognome: 'Badege', data_nascita: '1971-01-01', nazionalita: 'CD', paese_residenza: 'CD', luogo_nascita: 'Goma' };

describe('screening API', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let analyst: TestClient, analyst2: TestClient, co: TestClient, viewer: TestClient, outsider: TestClient, platform: TestClient;
  let analystUser: TestUser;
  let dataDir: string;
  const previousDir = process.env.SANCTIONS_DATA_DIR;

  before(async () => {
    env = await getTestEnv();
    dataDir = mkdtempSync(join(tmpdir(), 'cp-sanctions-'));
    cpSync(join(SHARED, 'un'), join(dataDir, 'un'), { recursive: true });
    cpSync(join(SHARED, 'crypto'), join(dataDir, 'crypto'), { recursive: true });
    process.env.SANCTIONS_DATA_DIR = dataDir;
    tenant = await env.createTenant();
    const other = await env.createTenant();
    analystUser = await env.createUser({ tenant, roles: ['analyst'] });
    [analyst, analyst2, co, viewer, outsider] = await Promise.all([
      env.login(analystUser),
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'analyst'] }).then((u) => env.login(u)),
    ]);
    platform = await env.login(await env.createUser({ tenant: null, roles: ['superadmin'] }));
    const r = await platform.post('/api/v1/screening/import', {});
    assert.equal(r.status, 202, r.text);
    await env.temporal.workflow.getHandle(r.body.workflow_id).result();
  });

  after(() => {
    if (previousDir === undefined) delete process.env.SANCTIONS_DATA_DIR; else process.env.SANCTIONS_DATA_DIR = previousDir;
    rmSync(dataDir, { recursive: true, force: true });
  });

  const setFourEyes = (on: boolean) => env.ownerDb('settings').insert({ cod_azienda: tenant, chiave: 'screening.four_eyes', valore: JSON.stringify(on) })
    .onConflict(['cod_azienda', 'chiave']).merge();

  async function matchFor(subject = UN_PERSON, client = analyst) {
    const r = await client.post('/api/v1/screening/run', subject);
    assert.equal(r.status, 200, r.text);
    return r.body;
  }

  it('import: 202 with run id and workflow link, status and history read the run', async () => {
    const stato = await viewer.get('/api/v1/screening/import/stato');
    assert.equal(stato.status, 200);
    assert.equal(stato.body.run.status, 'completed');
    assert.equal(stato.body.run.trigger, 'manual');
    assert.equal(stato.body.run.lists_total, 2);
    assert.equal(stato.body.run.lists_done, 2);
    // Another test file (the page catalogue) may have imported the same UN file first: then this
    // run finds it unchanged and stores no new version.
    const un = stato.body.run.progress.lists.un_sc_sanctions;
    assert.ok(['done', 'unchanged'].includes(un.status), un.status);
    if (un.status === 'done') assert.ok(un.added > 900);
    else assert.equal(un.added ?? 0, 0);
    assert.ok(stato.body.run.workflow_url.includes(encodeURIComponent(`screening-import:${stato.body.run.id}`)));
    const storico = await viewer.get('/api/v1/screening/import/storico');
    assert.equal(storico.status, 200);
    assert.ok(storico.body.items.some((i: { id: string }) => i.id === stato.body.run.id));
    // An import re-screens every tenant: platform work, for the superadmin only, on every name of the route.
    const admin = await env.login(await env.createUser({ tenant, roles: ['admin'] }));
    for (const path of ['/api/v1/screening/import', '/api/sanctions/lists/import', '/api/v1/admin/screening/imports/trigger']) {
      for (const client of [analyst, co, admin]) assert.equal((await client.post(path, {})).status, 403, path);
    }
    assert.equal((await co.submitForm('/admin/screening/import', {}, '/admin/screening/import')).status, 403, 'nor through the page');
    const page = await co.get('/admin/screening/import', { accept: 'text/html' });
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.text, /id="form-import"/, 'a tenant\'s officer follows imports but cannot start one');
    const platformPage = await platform.get('/admin/screening/import', { accept: 'text/html' });
    assert.equal(platformPage.status, 200, 'the superadmin needs no tenant to follow imports');
    assert.match(platformPage.text, /id="form-import"/);
    const platformStato = await platform.get('/api/v1/screening/import/stato');
    assert.equal(platformStato.status, 200, platformStato.text);
    assert.equal(platformStato.body.run.id, stato.body.run.id);
  });

  it('a second import of unchanged files stores no new version (legacy route)', async () => {
    const r = await platform.post('/api/sanctions/lists/import', {});
    assert.equal(r.status, 202, r.text);
    const res = await env.temporal.workflow.getHandle(r.body.workflow_id).result() as { lists: { skipped: boolean }[] };
    assert.ok(res.lists.every((l) => l.skipped));
  });

  it('run: screens a subject, returns hits with the score breakdown and the matches created', async () => {
    const body = await matchFor();
    const hit = body.hits.find((h: { entry_id: string }) => h.entry_id === 'un:CDi.001');
    assert.ok(hit, JSON.stringify(body.hits.slice(0, 3)));
    assert.ok(hit.score >= 0.85);
    assert.equal(hit.alert, true);
    assert.ok(hit.breakdown.name.pairs.length >= 2);
    assert.ok(body.matches_created.some((m: { entry_id: string }) => m.entry_id === 'un:CDi.001'));
    // Same subject again: the pair is already recorded.
    const again = await matchFor();
    assert.equal(again.matches_created.length, 0);
  });

  it('run: 422 on bad input, 403 for a viewer', async () => {
    const r = await analyst.post('/api/v1/screening/run', { nome: '', tipo: 'alien', data_nascita: '12/03/1970' });
    assert.equal(r.status, 422);
    assert.deepEqual(r.body.errors.map((e: { path: string }) => e.path).sort(), ['data_nascita', 'nome', 'tipo']);
    assert.equal((await viewer.post('/api/v1/screening/run', UN_PERSON)).status, 403);
  });

  it('wallet: ETH lower-cased hit, unknown address no hit, 422 without address', async () => {
    const hit = await analyst.post('/api/v1/screening/wallet', { address: WALLET });
    assert.equal(hit.status, 200, hit.text);
    assert.equal(hit.body.hit, true);
    assert.equal(hit.body.entries[0].entry_id, 'ofac:42498');
    const miss = await analyst.post('/api/v1/screening/wallet', { address: '0x0000000000000000000000000000000000000001' });
    assert.equal(miss.body.hit, false);
    assert.equal((await analyst.post('/api/v1/screening/wallet', {})).status, 422);
  });

  it('screen/:cod_anagrafe: 404 when no subject has that code, screens the stored one otherwise', async () => {
    assert.equal((await analyst.post('/api/sanctions/screen/ANA-NONE', {})).status, 404);
    await matchFor({ ...UN_PERSON, cod_anagrafe: 'ANA-77' });
    const r = await analyst.post('/api/sanctions/screen/ANA-77', {});
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.subject.cod_anagrafe, 'ANA-77');
    assert.ok(r.body.hits.length > 0);
    assert.equal((await outsider.post('/api/sanctions/screen/ANA-77', {})).status, 404, 'another tenant\'s subject');
    // The tenant's compliance officer re-screens its own subjects; a viewer may not.
    const byCo = await co.post('/api/sanctions/screen/ANA-77', {});
    assert.equal(byCo.status, 200, byCo.text);
    assert.equal(byCo.body.subject.id, r.body.subject.id);
    assert.equal((await viewer.post('/api/sanctions/screen/ANA-77', {})).status, 403);
  });

  it('batch-screen: inline up to 50, a workflow above', async () => {
    const small = await analyst.post('/api/sanctions/batch-screen', { subjects: [UN_PERSON, { nome: 'Gaston Iyamuremye', tipo: 'person' }] });
    assert.equal(small.status, 200, small.text);
    assert.equal(small.body.mode, 'inline');
    assert.equal(small.body.results.length, 2);
    const many = Array.from({ length: 60 }, (_, i) => ({ nome: `Persona Inesistente ${i} Qwertyuiop`, tipo: 'person' }));
    const big = await analyst.post('/api/sanctions/batch-screen', { subjects: many });
    assert.equal(big.status, 202, big.text);
    const progress = await env.temporal.workflow.getHandle(big.body.workflow_id).result() as { done: number; status: string };
    assert.equal(progress.done, 60);
    assert.equal(progress.status, 'completed');
    const status = await analyst.get(`/api/sanctions/batch-screen/${big.body.batch_id}`);
    assert.equal(status.status, 200, status.text);
    assert.equal(status.body.done, 60);
    assert.equal(status.body.total, 60);
    assert.equal(status.body.status, 'completed');
    assert.equal((await outsider.get(`/api/sanctions/batch-screen/${big.body.batch_id}`)).status, 404, 'another tenant does not see the batch');
    assert.equal((await analyst.post('/api/sanctions/batch-screen', { subjects: [] })).status, 422);
  });

  it('matches: list with filters and pagination, detail with breakdown, cross-tenant 404', async () => {
    const list = await viewer.get('/api/v1/screening/matches?stato=open&min_score=0.8&limit=2');
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.limit, 2);
    assert.ok(list.body.total >= 1);
    assert.ok(list.body.items.every((m: { stato: string; score: number }) => m.stato === 'open' && m.score >= 0.8));
    const legacy = await viewer.get('/api/sanctions/hits?list=un_sc_sanctions');
    assert.ok(legacy.body.items.every((m: { list_name: string }) => m.list_name === 'un_sc_sanctions'));
    const id = list.body.items[0].id;
    const d = await viewer.get(`/api/v1/screening/matches/${id}`);
    assert.equal(d.status, 200);
    assert.ok(d.body.breakdown.name);
    assert.ok(d.body.entry.name);
    assert.deepEqual(d.body.allowed_actions, []);
    assert.equal((await outsider.get(`/api/v1/screening/matches/${id}`)).status, 404);
    assert.equal((await outsider.put(`/api/v1/screening/matches/${id}/assegna`, { assegnatario: analystUser.cod_utente })).status, 404);
    assert.equal((await viewer.get('/api/v1/screening/matches?stato=boh')).status, 422);
  });

  it('assegna then risolvi with four-eyes: same user 403, another user completes; false positive suppresses the pair', async () => {
    await setFourEyes(true);
    const subject = { nome: 'Frank Kakolele Bwambale', tipo: 'person' };
    const run = await matchFor(subject);
    const m = run.matches_created.find((x: { entry_id: string }) => x.entry_id === 'un:CDi.002');
    assert.ok(m, JSON.stringify(run.hits.slice(0, 2)));
    const early = await analyst.put(`/api/v1/screening/matches/${m.id}/risolvi`, { esito: 'false_positive', motivazione: 'Omonimia' });
    assert.equal(early.status, 409);
    assert.equal(early.body.code, 'INVALID_TRANSITION');
    assert.deepEqual(early.body.allowed_actions, ['assegna']);
    assert.equal((await analyst.put(`/api/v1/screening/matches/${m.id}/assegna`, { assegnatario: 'x' })).status, 422);
    assert.equal((await viewer.put(`/api/v1/screening/matches/${m.id}/assegna`, { assegnatario: analystUser.cod_utente })).status, 403);
    const a = await analyst.put(`/api/v1/screening/matches/${m.id}/assegna`, { assegnatario: analystUser.cod_utente });
    assert.equal(a.status, 200, a.text);
    assert.equal(a.body.stato, 'assigned');
    assert.equal((await analyst.put(`/api/v1/screening/matches/${m.id}/risolvi`, { esito: 'false_positive' })).status, 422);
    const req = await analyst.put(`/api/v1/screening/matches/${m.id}/risolvi`, { esito: 'false_positive', motivazione: 'Data di nascita diversa' });
    assert.equal(req.status, 200, req.text);
    assert.equal(req.body.stato, 'assigned');
    assert.ok(req.body.resolution_requested_by);
    const same = await analyst.put(`/api/v1/screening/matches/${m.id}/risolvi`, { esito: 'false_positive', motivazione: 'Confermo' });
    assert.equal(same.status, 403);
    assert.equal(same.body.code, 'FOUR_EYES_REQUIRED');
    const done = await analyst2.post(`/api/v1/admin/screening/matches/${m.id}/risolvi`, { esito: 'false_positive', motivazione: 'Confermo' });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.stato, 'false_positive');
    assert.deepEqual(done.body.audit.map((x: { action: string }) => x.action),
      ['screening.match.create', 'screening.match.assegna', 'screening.match.risolvi_richiesta', 'screening.match.risolvi']);
    const after = await analyst2.put(`/api/v1/screening/matches/${m.id}/risolvi`, { esito: 'true_match', motivazione: 'x' });
    assert.equal(after.status, 409);
    assert.deepEqual(after.body.allowed_actions, []);
    // Same subject, same entry: suppressed, not raised again.
    const rerun = await matchFor(subject);
    assert.ok(!rerun.matches_created.some((x: { entry_id: string }) => x.entry_id === 'un:CDi.002'));
    assert.ok(rerun.suppressed >= 1);
    // A changed subject (now with a date of birth) is a different subject key: raised again.
    const changed = await matchFor({ ...subject, data_nascita: '1960' });
    assert.ok(changed.hits.length === 0 || changed.suppressed === 0);
  });

  it('legacy resolve goes open -> resolved at once when four-eyes is off', async () => {
    await setFourEyes(false);
    const run = await matchFor({ nome: 'Gaston Iyamuremye', tipo: 'person', data_nascita: '1948' });
    const list = await analyst.get('/api/v1/screening/matches?list=un_sc_sanctions&stato=open&limit=200');
    const m = list.body.items.find((x: { entry_id: string; subject_id: string }) => x.entry_id === 'un:CDi.003' && x.subject_id === run.subject.id);
    assert.ok(m);
    const r = await co.put(`/api/sanctions/hits/${m.id}/resolve`, { esito: 'true_match', motivazione: 'Stesso soggetto' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.stato, 'true_match');
  });

  it('pages without JavaScript: list, htmx fragment, detail with breakdown, resolve form (422 keeps input), soft delete', async () => {
    await setFourEyes(false);
    const run = await matchFor({ nome: 'Eric Badege', tipo: 'person', cod_anagrafe: 'ANA-PAGE' });
    const list = await analyst.get('/screening', { accept: 'text/html' });
    assert.equal(list.status, 200);
    assert.match(list.text, /Corrispondenze con le liste/);
    const frag = await analyst.get('/screening?stato=open', { accept: 'text/html', 'HX-Request': 'true' });
    assert.ok(frag.text.trim().startsWith('<div id="screening-tabella">'), frag.text.slice(0, 80));
    const m = (await analyst.get(`/api/v1/screening/matches?stato=open&q=Eric&limit=200`)).body.items.find((x: { subject_id: string }) => x.subject_id === run.subject.id);
    assert.ok(m);
    const detail = await analyst.get(`/screening/${m.id}`, { accept: 'text/html' });
    assert.equal(detail.status, 200);
    assert.match(detail.text, /data-breakdown/);
    assert.match(detail.text, /id="form-assegna"/);
    assert.equal((await analyst.get(`/admin/screening/matches/${m.id}`, { accept: 'text/html' })).status, 200);
    assert.equal((await outsider.get(`/screening/${m.id}`, { accept: 'text/html' })).status, 404);
    const assigned = await analyst.submitForm(`/screening/${m.id}/assegna`, {}, `/screening/${m.id}`);
    assert.equal(assigned.status, 302);
    const bad = await analyst.submitForm(`/screening/${m.id}/risolvi`, { esito: 'false_positive', motivazione: '' }, `/screening/${m.id}`);
    assert.equal(bad.status, 422);
    assert.match(bad.text, /Indica la motivazione/);
    assert.match(bad.text, /<option value="false_positive" selected>/);
    const ok = await analyst.submitForm(`/screening/${m.id}/risolvi`, { esito: 'true_match', motivazione: 'Stessa data di nascita' }, `/screening/${m.id}`);
    assert.equal(ok.status, 302);
    assert.equal((await analyst.get(`/api/v1/screening/matches/${m.id}`)).body.stato, 'true_match');
    const again = await analyst.submitForm(`/screening/${m.id}/risolvi`, { esito: 'true_match', motivazione: 'x' }, `/screening/${m.id}`);
    assert.equal(again.status, 302, 'a refused action returns to the match with a message');
    assert.doesNotMatch(detail.text, /id="form-elimina"|\/elimina"/, 'deleting is not offered to a role the route refuses');
    const asCo = await co.get(`/screening/${m.id}`, { accept: 'text/html' });
    // The deletion waits behind a confirmation that says what it does (a <details>, no script needed).
    assert.match(asCo.text, /<details class="confirm-action" id="form-elimina"[^>]*>\s*<summary class="btn btn-outline-danger">Elimina la corrispondenza…<\/summary>[\s\S]*non si può annullare[\s\S]*action="\/screening\/[^"]+\/elimina"/);
    assert.equal((await analyst.submitForm(`/screening/${m.id}/elimina`, {}, `/screening/${m.id}`)).status, 403, 'only co and admin delete');
    const del = await co.submitForm(`/screening/${m.id}/elimina`, {}, `/screening/${m.id}`);
    assert.equal(del.status, 302);
    assert.equal((await analyst.get(`/api/v1/screening/matches/${m.id}`)).status, 404);
    for (const path of ['/admin/screening', '/admin/screening/import', '/admin/screening/matches']) {
      const r = await viewer.get(path, { accept: 'text/html' });
      assert.equal(r.status, 200, path);
    }
    const imp = await co.get('/admin/screening/import', { accept: 'text/html' });
    assert.match(imp.text, /Storico/);
    assert.match(imp.text, /data-workflow-id="screening-import:/);
  });

  it('dashboard counts by state and list, last import; every change is in a valid audit chain', async () => {
    const d = await viewer.get('/api/v1/screening/dashboard');
    assert.equal(d.status, 200);
    assert.ok(d.body.by_state.open >= 1);
    assert.ok(d.body.by_state.true_match >= 1);
    assert.ok(d.body.by_list.some((l: { list_name: string }) => l.list_name === 'un_sc_sanctions'));
    assert.ok(d.body.last_import);
    const v = await verifyAuditChain(env.ownerDb, tenant);
    assert.equal(v.ok, true);
  });

  describe('onboarding submission', () => {
    it('a listed owner and a sanctioned wallet: hits with scores, high risk, matches to resolve, four eyes', async () => {
      const c = await caseInReview(env, tenant, {
        secondOwner: UN_LISTED_OWNER,
        wallets: [{ rete: 'ETH', indirizzo: WALLET, tipo: 'custodial', vasp_nome: 'Exchange Esempio S.p.A.', volume_annuo_eur: '500' }],
      });
      const d = await analyst.get(`/api/v1/admin/onboarding/cases/${c.caseId}`);
      assert.equal(d.status, 200, d.text);
      const soggetti = d.body.screening.soggetti as { nome: string; hits: { score: number; list_name?: string }[] }[];
      const listed = soggetti.find((s) => /badege/i.test(s.nome));
      assert.ok(listed, `the listed owner was screened: ${JSON.stringify(soggetti.map((s) => s.nome))}`);
      assert.ok(listed.hits.length > 0 && listed.hits[0]!.score >= 0.85, JSON.stringify(listed.hits[0]));
      for (const s of soggetti.filter((x) => x !== listed)) assert.deepEqual(s.hits, [], `${s.nome} is on no list`);

      const wallet = d.body.wallets[0];
      assert.ok(JSON.stringify(wallet.screening).includes('true'), `the wallet hit: ${JSON.stringify(wallet.screening)}`);
      assert.equal(d.body.risk_classe, 'alto');
      const codes = (d.body.risk.fattori as { codice: string }[]).map((f) => f.codice);
      assert.ok(codes.includes('screening') && codes.includes('wallet_sanzionato'), codes.join(','));

      // The hit is a screening match of the tenant, to be resolved in the screening console.
      const subjects = await env.ownerDb('screening_subjects').where({ cod_azienda: tenant }).whereLike('cod_anagrafe', `onboarding:${c.caseId}:%`);
      const matches = await env.ownerDb('screening_matches').whereIn('subject_id', subjects.map((x: { id: string }) => x.id));
      assert.ok(matches.length >= 1, 'the listed owner has a match in the screening console');

      // The sanctioned wallet cannot be verified into the relationship: the reviewer revokes it, then the first approval asks for a second one.
      const revoke = await analyst.post(`/api/v1/admin/onboarding/cases/${c.caseId}/wallets/${wallet.id}/revoke`, { reason: 'Indirizzo nella lista OFAC' });
      assert.equal(revoke.status, 200, revoke.text);
      const first = await analyst.post(`/api/v1/admin/onboarding/cases/${c.caseId}/approve`, { note: 'Titolare effettivo da verificare con il responsabile' });
      assert.equal(first.status, 200, first.text);
      await waitForStatus(env, c, 'pending_second_approval');
    });
  });
});
