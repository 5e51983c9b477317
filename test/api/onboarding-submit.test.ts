import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { provenEthWallet } from '../helpers/onboarding';
import { completeCddAnswers, eventually, openCase, PDF, personaFisica, signCeremony } from './onboarding-fixtures';

const DECLARATION = { titolare_wallet: true, fondi_leciti: true, aggiornamento: true, luogo: 'Roma' };

describe('onboarding applicant API: travel rule, submission, erase after submission', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
  });

  it('travel rule: needs a wallet and a complete declaration, signs through a ceremony, resets, completes once signed', async () => {
    const { client: c, base, caseId } = await openCase(env, tenant, { subjectType: 'persona_fisica' });
    let r = await c.post(`${base}/travel-rule`, DECLARATION);
    assert.equal(r.status, 422);
    assert.equal(r.body.errors[0].path, 'wallets');
    assert.equal((await c.post(`${base}/wallets`, provenEthWallet(caseId, tenant))).status, 201);
    r = await c.post(`${base}/travel-rule`, { ...DECLARATION, fondi_leciti: false, luogo: '' });
    assert.equal(r.status, 422);
    assert.deepEqual(r.body.errors.map((e: { path: string }) => e.path).sort(), ['fondi_leciti', 'luogo']);

    r = await c.post(`${base}/travel-rule`, DECLARATION);
    assert.equal(r.status, 201, r.text);
    const first = r.body as { ceremony_id: string; signing_path: string };
    assert.ok(first.signing_path.startsWith(`/esign/ceremony/${first.ceremony_id}?token=`));
    r = await c.get(base);
    assert.equal(r.body.travel_rule.stato, 'signing');
    assert.equal(r.body.travel_rule.signing_path, first.signing_path);
    r = await c.post(`${base}/travel-rule`, DECLARATION);
    assert.equal(r.status, 409, 'a declaration being signed must be reset first');
    r = await c.post(`${base}/travel-rule/complete`, {});
    assert.equal(r.status, 409);
    assert.equal(r.body.code, 'SIGNATURE_PENDING');
    assert.equal(r.body.signing_path, first.signing_path);

    r = await c.delete(`${base}/travel-rule`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.travel_rule.stato, 'none');
    r = await c.post(`${base}/travel-rule`, DECLARATION);
    assert.equal(r.status, 201, r.text);
    const second = r.body as { ceremony_id: string; signing_path: string };
    assert.notEqual(second.ceremony_id, first.ceremony_id);
    await eventually(() => env.ownerDb('esign_ceremonies').where({ id: second.ceremony_id }).first(), 'the ceremony row');
    await signCeremony(env, second.signing_path);
    // The signature reaches the case's workflow as a signal: completing succeeds once it has.
    const done = await eventually(async () => {
      const x = await c.post(`${base}/travel-rule/complete`, {});
      if (x.status === 409 && x.body.code === 'SIGNATURE_PENDING') return false;
      return x;
    }, 'the travel-rule signature');
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.travel_rule.stato, 'completed');
    assert.ok(done.body.travel_rule.signed_at);
    assert.deepEqual(done.body.travel_rule.dichiarazione, { ...DECLARATION, versione: done.body.travel_rule.versione });
    r = await c.post(`${base}/wallets`, provenEthWallet(caseId, tenant));
    assert.equal(r.status, 422, 'a wallet added after the signature would pass as covered by a declaration that does not list it');
    assert.equal(r.body.errors[0].path, 'travel_rule');
    assert.equal((await c.get(base)).body.wallets.length, 1);
  });

  it('submits a complete case, asks for the declarations signature (202), completes to in_review; then erase is refused (AML retention)', async () => {
    const { client: c, base, caseId } = await openCase(env, tenant, { subjectType: 'persona_fisica' });
    let r = await c.post(`${base}/submit`, {});
    assert.equal(r.status, 422);
    assert.ok(r.body.issues.some((i: { path: string; step: number }) => i.path === 'documenti.documento_identita.soggetto' && i.step === 3), r.text);
    assert.equal((await env.ownerDb('onboarding_cases').where({ id: caseId }).first()).stato, 'draft');
    r = await c.post(`${base}/complete-submission`, {});
    assert.equal(r.status, 409, 'nothing to complete before submission');

    assert.equal((await c.post(`${base}/anagrafe`, personaFisica())).status, 200);
    assert.equal((await c.upload(`${base}/documents`, { tipo: 'documento_identita' }, { name: 'ci.pdf', type: 'application/pdf', bytes: PDF })).status, 201);
    r = await c.post(`${base}/cdd/answers`, await completeCddAnswers(c, base));
    assert.equal(r.status, 200, r.text);
    assert.equal((await c.post(`${base}/countries`, { paesi: [{ paese: 'IT', ruolo: 'sede_operativa' }] })).status, 200);
    r = await c.get(`${base}/validation`);
    assert.deepEqual(r.body, { ok: true, issues: [] });

    r = await c.post(`${base}/submit`, {});
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.stato, 'submitted');
    assert.equal(r.body.modificabile, false);
    const signing = r.body.dichiarazioni.signing_path as string;
    assert.ok(signing.startsWith(`/esign/ceremony/${r.body.dichiarazioni.ceremony_id}?token=`));
    assert.equal(r.body.risk, undefined, 'the applicant does not see the risk score');

    r = await c.patch(`${base}/draft`, { anagrafe: { nome: 'Altro' } });
    assert.equal(r.status, 409);
    assert.equal(r.body.code, 'INVALID_TRANSITION');
    assert.deepEqual(r.body.allowed_actions, ['complete-submission']);
    r = await c.upload(`${base}/documents`, { tipo: 'altro' }, { name: 'a.pdf', type: 'application/pdf', bytes: PDF });
    assert.equal(r.status, 409, 'no upload once submitted');

    r = await c.post(`${base}/complete-submission`, {});
    assert.equal(r.status, 202, r.text);
    assert.deepEqual(r.body, { stato: 'submitted', firma: { ceremony_id: r.body.firma.ceremony_id, signing_path: signing } });

    await eventually(() => env.ownerDb('esign_ceremonies').where({ id: r.body.firma.ceremony_id }).first(), 'the declarations ceremony row');
    await signCeremony(env, signing);
    await eventually(async () => (await c.get(base)).body.stato === 'in_review', 'the case to reach in_review');
    r = await c.post(`${base}/complete-submission`, {});
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.stato, 'in_review');
    assert.equal(r.body.dichiarazioni.stato, 'signed');
    assert.equal(r.body.dichiarazioni.signing_path, null);

    r = await c.delete(`${base}/erase`);
    assert.equal(r.status, 409);
    assert.equal(r.body.code, 'AML_RETENTION');
    assert.equal(r.body.retention_years, 10);
    assert.match(r.body.detail, /art\. 31 d\.lgs\. 231\/2007/);
    const row = await env.ownerDb('onboarding_cases').where({ id: caseId }).first();
    assert.equal(row.stato, 'in_review');
    assert.equal(row.anagrafe.cognome, 'Rossi', 'the data is kept');
    assert.equal((await env.ownerDb('onboarding_documents').where({ case_id: caseId })).length, 1);
    assert.equal((await c.get(base)).status, 200, 'the applicant keeps the session');
  });

  it('the case and its pages read the ceremony outcome from the case row: a locked declarations ceremony shows a new-link button, which starts a fresh one', async () => {
    const { client: c, base } = await openCase(env, tenant, { subjectType: 'persona_fisica' });
    assert.equal((await c.post(`${base}/anagrafe`, personaFisica())).status, 200);
    assert.equal((await c.upload(`${base}/documents`, { tipo: 'documento_identita' }, { name: 'ci.pdf', type: 'application/pdf', bytes: PDF })).status, 201);
    assert.equal((await c.post(`${base}/cdd/answers`, await completeCddAnswers(c, base))).status, 200);
    assert.equal((await c.post(`${base}/countries`, { paesi: [{ paese: 'IT', ruolo: 'sede_operativa' }] })).status, 200);
    let r = await c.post(`${base}/submit`, {});
    assert.equal(r.status, 200, r.text);
    const first = r.body.dichiarazioni.ceremony_id as string;
    assert.equal(r.body.dichiarazioni.stato, 'active');

    // What the pages show is the row: written there, it is what the applicant sees (no workflow is asked).
    await env.ownerDb('onboarding_cases').where({ id: r.body.id }).update({ declarations_stato: 'ended' });
    assert.match((await c.get('/onboarding/stato', { accept: 'text/html' })).text, /Il link di firma è scaduto/);
    await env.ownerDb('onboarding_cases').where({ id: r.body.id }).update({ declarations_stato: 'active' });

    // Three wrong codes lock the ceremony; it tells the case, whose activity writes the outcome on the row.
    const token = new URL(r.body.dichiarazioni.signing_path, 'http://x').searchParams.get('token')!;
    const signer = env.client();
    await eventually(() => env.ownerDb('esign_ceremonies').where({ id: first }).first(), 'the ceremony row');
    for (const step of ['terms', 'present']) assert.equal((await signer.post(`/api/v1/esign/ceremony/${first}/${step}`, { token })).status, 200);
    for (let i = 0; i < 3; i++) await signer.post(`/api/v1/esign/ceremony/${first}/sign`, { token, otp: '000000' });
    r = await eventually(async () => { const x = await c.get(base); return x.body.dichiarazioni.stato === 'ended' ? x : false; }, 'the ended ceremony');
    assert.equal(r.body.stato, 'submitted');
    assert.equal(r.body.dichiarazioni.signing_path, null);
    const page = await c.get('/onboarding/stato', { accept: 'text/html' });
    assert.match(page.text, /Il link di firma è scaduto/);
    assert.match(page.text, /Richiedi un nuovo link di firma/);
    const audit = await env.ownerDb('audit_events').where({ entity_type: 'onboarding_case', entity_id: r.body.id, action: 'onboarding.ceremony' }).first();
    assert.deepEqual({ ...audit.data, transition_id: undefined }, { transition_id: undefined, ceremony_id: first, purpose: 'dichiarazioni', outcome: 'ended' });

    const again = await c.submitForm('/onboarding/stato/firma', {}, '/onboarding/stato');
    assert.equal(again.status, 302);
    const next = again.headers.get('location')!;
    assert.match(next, /^\/esign\/ceremony\/[0-9a-f-]{36}\?token=/);
    assert.ok(!next.includes(first), 'a fresh ceremony');
    r = await c.get(base);
    assert.equal(r.body.dichiarazioni.stato, 'active');
    assert.equal(r.body.dichiarazioni.signing_path, next);
  });
});
