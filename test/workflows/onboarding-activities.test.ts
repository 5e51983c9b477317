import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCddReviewActivities } from '../../activities/cdd/cdd-review.activities';
import { createOnboardingActivities } from '../../activities/onboarding/onboarding.activities';
import { withTenant } from '../../src/db/tenant';
import { verifyAuditChain } from '../../src/domains/audit/audit.chain';
import { DocumentStore } from '../../src/domains/onboarding/document-store';
import { CDD_SCHEMA_VERSION } from '../../src/domains/onboarding/onboarding.cdd-schema';
import { onboardingEsignToken, sha256Hex } from '../../src/domains/onboarding/onboarding.tokens';
import { cddReviewWorkflowId } from '../../workflows/cdd/cdd-review.contract';
import { onboardingWorkflowId, type OnboardingEdit } from '../../workflows/onboarding/onboarding.contract';
import { linkIn } from '../helpers/mailbox';
import { getTestEnv, type TestEnv } from '../helpers/env';
import {
  companyAnagrafe, companyCdd, companyCountries, companyOwners, travelRuleDeclaration, UBO_A, UBO_B,
} from './fixtures/onboarding-application';

const customer = (caseId: string) => ({ id: `cliente:${caseId}`, username: 'cliente', roles: ['cliente'] });
const DAY = 86_400_000;

/**
 * The onboarding activities against real PostgreSQL and a real document store: the
 * records an approval creates, idempotent under retries; GDPR erasure of a draft;
 * completeness issues of an incomplete case.
 */
describe('onboarding activities', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let acts: ReturnType<typeof createOnboardingActivities>;
  let store: DocumentStore;
  let dir: string;

  before(async () => {
    env = await getTestEnv();
    dir = mkdtempSync(join(tmpdir(), 'cp-onb-docs-'));
    store = new DocumentStore(dir);
    // Called directly (not as activities): messages go to their delivery through the web's dispatcher.
    acts = createOnboardingActivities({ db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: { ...env.deps.config, documentDir: dir }, dispatch: env.deps.dispatch });
  });
  after(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

  async function newCase(tenant: string, email = 'richiedente@example.test') {
    const caseId = randomUUID();
    const step = (actor = customer(caseId)) => ({ codAzienda: tenant, caseId, transitionId: randomUUID(), actor });
    await acts.createOnboardingProjection({ ...step(), data: { email, canale: 'online', subjectType: null }, workflowId: onboardingWorkflowId(tenant, caseId) });
    const edit = (e: OnboardingEdit) => acts.applyOnboardingEdit({ ...step(), edit: e });
    const upload = async (tipo: string, riferimento: string, bytes: Buffer = randomBytes(64)) => {
      const sha256 = await store.put(tenant, bytes);
      const document = { id: randomUUID(), tipo, riferimento, nome_file: `${tipo}.pdf`, mime: 'application/pdf', dimensione: bytes.length, sha256 };
      await edit({ kind: 'document-add', document });
      return document;
    };
    return { caseId, step, edit, upload };
  }

  const blobExists = (tenant: string, sha: string) => stat(join(dir, tenant, sha.slice(0, 2), sha)).then(() => true, () => false);

  it('materialises an approved company with two owners once, even when retried', async () => {
    const tenant = await env.createTenant();
    const coA = await env.createUser({ tenant, roles: ['co'] });
    const coB = await env.createUser({ tenant, roles: ['co'] });
    await env.createUser({ tenant, roles: ['analyst'] });
    const { caseId, step, edit, upload } = await newCase(tenant);
    const staff = (u: typeof coA) => step({ id: u.cod_utente, username: u.username, roles: ['co'] });

    await edit({ kind: 'section', section: 'subject_type', data: { subject_type: 'societa' } });
    await edit({ kind: 'section', section: 'anagrafe', data: companyAnagrafe() });
    // A new owner without an id gets one; the ids sent back are kept.
    const owners = companyOwners();
    await edit({ kind: 'section', section: 'ubo', data: { titolari: [owners[0], { ...owners[1], id: undefined }] } });
    const saved = (await env.ownerDb('onboarding_cases').where({ id: caseId }).first()).ubo as { id: string }[];
    assert.equal(saved[0]!.id, UBO_A);
    assert.match(saved[1]!.id, /^[0-9a-f-]{36}$/);
    await edit({ kind: 'section', section: 'ubo', data: { titolari: owners } });
    await edit({ kind: 'section', section: 'cdd_answers', data: { versione: CDD_SCHEMA_VERSION, risposte: { ...companyCdd(), volume_annuo: 'oltre_1m' } } });
    await edit({ kind: 'section', section: 'countries', data: { paesi: companyCountries() } });
    for (const [tipo, ref] of [['documento_identita', 'soggetto'], ['visura_camerale', 'soggetto'], ['atto_costitutivo', 'soggetto'], ['documento_identita', UBO_A], ['documento_identita', UBO_B]] as const) {
      await upload(tipo, ref);
    }
    const walletId = randomUUID();
    const added = await edit({
      kind: 'wallet-add',
      wallet: { id: walletId, rete: 'ETH', indirizzo: '0x52908400098527886E0F7030069857D2E4169EE7', tipo: 'self_hosted', volume_annuo_eur: 5000, prova: { metodo: 'firma_messaggio', messaggio: 'm', firma: 'f', verificata: true } },
    });
    assert.deepEqual(added.wallet, { id: walletId, status: 'pending', selfHosted: true, volumeEur: 5000, proof: 'firma_verificata' });
    assert.equal((await acts.validateOnboarding(step())).issues.map((i) => i.path).join(), 'travel_rule');

    await edit({ kind: 'travel-rule-sign', declaration: travelRuleDeclaration() });
    const tr = await acts.prepareOnboardingSigning({ ...step(), purpose: 'travel_rule' });
    assert.equal(Buffer.from(tr.document.contenuto_base64, 'base64').subarray(0, 5).toString(), '%PDF-');
    await edit({ kind: 'travel-rule-complete' });
    const v = await acts.validateOnboarding(step());
    assert.deepEqual(v, { ok: true, issues: [] });

    assert.deepEqual(await acts.screenOnboardingSubjects(step()), { matches: 0, pep: false });
    assert.deepEqual(await acts.screenOnboardingWallets(step()), { hits: 0 });
    const risk = await acts.scoreOnboardingRisk(step());
    // company 10 + non-EEA (CH) 5 + self-hosted 5 + remote 5 + volume over 1M 15
    assert.equal(risk.score, 40);
    assert.equal(risk.classe, 'alto');
    assert.equal(risk.secondApprovalRequired, true);

    await acts.recordOnboardingTransition({ ...step(), action: 'submit', from: 'draft', to: 'submitted', extra: { submission: 1 } });
    const decl = await acts.prepareOnboardingSigning({ ...step(), purpose: 'dichiarazioni' });
    assert.deepEqual(decl.signer, { nome: 'Giulia Verdi', email: 'richiedente@example.test' });
    assert.equal(decl.tokenHash, sha256Hex(onboardingEsignToken(env.deps.config.sessionSecret, decl.ceremonyId)));
    assert.ok(Buffer.from(decl.document.contenuto_base64, 'base64').length < 40_000, 'text-only PDF stays small');
    await acts.recordOnboardingTransition({ ...step(), action: 'complete-submission', from: 'submitted', to: 'in_review', extra: {} });
    await acts.notifyOnboardingReviewers({ ...step(), event: 'in_review' });
    await acts.recordWalletTransition({ ...staff(coA), walletId, action: 'verify', from: 'pending', to: 'verified', reason: null });
    await acts.recordOnboardingTransition({ ...staff(coA), action: 'approve', from: 'in_review', to: 'pending_second_approval', extra: { first_approver: coA.username } });

    const approval = { ...staff(coB), firstApprover: coA.cod_utente };
    const made = await acts.materialiseOnboardingCustomer(approval);
    const again = await acts.materialiseOnboardingCustomer({ ...approval, transitionId: randomUUID() });
    assert.deepEqual(again, made);
    await acts.recordOnboardingTransition({ ...staff(coB), action: 'complete-approval', from: 'pending_second_approval', to: 'approved', extra: { cod_anagrafe: made.codAnagrafe } });

    const db = env.ownerDb;
    const anagrafe = await db('anagrafe').where({ cod_azienda: tenant }).orderBy('cod_anagrafe');
    assert.deepEqual(anagrafe.map((a) => [a.cod_anagrafe, a.tipo_soggetto, a.ruolo]), [
      ['ANA-000001', 'societa', 'cliente'], ['ANA-000002', 'persona_fisica', 'legale_rappresentante'],
      ['ANA-000003', 'persona_fisica', 'titolare_effettivo'], ['ANA-000004', 'persona_fisica', 'titolare_effettivo'],
    ]);
    assert.equal(made.codAnagrafe, 'ANA-000001');
    assert.ok(anagrafe.every((a) => a.onboarding_case_id === caseId));
    assert.equal(anagrafe[0].classe_rischio, 'alto');
    assert.equal(anagrafe[0].punteggio_rischio, 40);
    assert.equal(anagrafe[0].denominazione, 'Alfa Beta S.r.l.');
    // What monitoring compares with: the onboarding date, the band "over 1M" as 1M / 12 a month, no relevant cash as 'basso'.
    assert.deepEqual([anagrafe[0].data_onboarding.toLocaleDateString('sv-SE'), Number(anagrafe[0].volume_mensile_atteso_eur), anagrafe[0].uso_contanti_atteso],
      [new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' }), 83_333.33, 'basso']);
    assert.deepEqual([anagrafe[1].data_onboarding, anagrafe[1].volume_mensile_atteso_eur], [null, null], 'the representative declares nothing');
    assert.equal(anagrafe[2].codice_fiscale, 'BNCMRC70A01F205Z');

    const rapporti = await db('rapporti').where({ cod_azienda: tenant });
    assert.equal(rapporti.length, 1);
    assert.equal(rapporti[0].cod_rapporto, 'RAP-000001');
    assert.equal(rapporti[0].tipo, 'rapporto_continuativo');
    assert.equal(rapporti[0].scopo, 'Investimento in cripto-attività');
    const legami = await db('legami').where({ cod_azienda: tenant }).orderBy('cod_anagrafe_a');
    assert.deepEqual(legami.map((l) => [l.cod_anagrafe_da, l.cod_anagrafe_a, l.tipo, l.percentuale === null ? null : Number(l.percentuale)]), [
      ['ANA-000001', 'ANA-000002', 'legale_rappresentante', null],
      ['ANA-000001', 'ANA-000003', 'titolare_effettivo', 60], ['ANA-000001', 'ANA-000004', 'titolare_effettivo', 40],
    ]);
    // The approval opened the company's KYB (issue 13) with what the applicant gave: declared owners, documents, profile.
    const [kyb, ...moreKyb] = await db('verifiche').where({ cod_azienda: tenant });
    assert.equal(moreKyb.length, 0, 'one verification, even when retried');
    assert.deepEqual([kyb.tipo, kyb.cod_verifica, kyb.cod_anagrafe, kyb.stato, kyb.origine, kyb.onboarding_case_id], ['kyb', 'KYB-000001', 'ANA-000001', 'pending', 'onboarding', caseId]);
    assert.equal(made.verifica?.input.codVerifica, 'KYB-000001', 'the workflow the onboarding workflow starts');
    assert.equal((kyb.dati_dichiarati.titolari as unknown[]).length, 2);
    assert.equal(kyb.profilo.paese_costituzione, companyAnagrafe().paese_costituzione);
    assert.equal((await db('verifiche_checks').where({ verifica_id: kyb.id })).length, 7, 'the standard KYB checks');
    const relied = await db('verifiche_documenti as vd').join('documenti as d', 'd.id', 'vd.documento_id').where('vd.verifica_id', kyb.id).orderBy('d.cod_documento').select('d.tipo', 'd.cod_anagrafe');
    assert.deepEqual(relied.map((d) => [d.tipo, d.cod_anagrafe]), [['carta_identita', 'ANA-000002'], ['visura_camerale', 'ANA-000001'], ['atto_costitutivo', 'ANA-000001']]);
    // Beneficial owners are links of the one graph, with the kind of control and their source.
    const ubo = legami.filter((l) => l.tipo === 'titolare_effettivo');
    assert.deepEqual(ubo.map((u) => [u.cod_anagrafe_da, u.cod_anagrafe_a, Number(u.percentuale), u.tipo_controllo, u.fonte]), [
      ['ANA-000001', 'ANA-000003', 60, 'proprieta_diretta', 'onboarding'], ['ANA-000001', 'ANA-000004', 40, 'proprieta_diretta', 'onboarding'],
    ]);
    // The relationship's roles: the customer holds it, the representative acts on it, the owners own it.
    const roles = await db('rapporti_soggetti').where({ cod_azienda: tenant }).orderBy([{ column: 'ruolo' }, { column: 'cod_anagrafe' }]);
    assert.deepEqual(roles.map((x) => [x.cod_rapporto, x.cod_anagrafe, x.ruolo, x.fonte]), [
      ['RAP-000001', 'ANA-000002', 'esecutore', 'onboarding'], ['RAP-000001', 'ANA-000001', 'intestatario', 'onboarding'],
      ['RAP-000001', 'ANA-000003', 'titolare_effettivo', 'onboarding'], ['RAP-000001', 'ANA-000004', 'titolare_effettivo', 'onboarding'],
    ]);
    // Every new record has its first version.
    const versions = await db('anagrafe_versioni').where({ cod_azienda: tenant }).orderBy('cod_anagrafe');
    assert.deepEqual(versions.map((v) => [v.cod_anagrafe, v.versione, v.operazione]), anagrafe.map((a) => [a.cod_anagrafe, 1, 'create']));
    const wallets = await db('wallets').where({ cod_azienda: tenant });
    assert.deepEqual(wallets.map((w) => [w.cod_anagrafe, w.stato, w.onboarding_wallet_id]), [['ANA-000001', 'attivo', walletId]]);

    const reviews = await db('cdd_reviews').where({ cod_azienda: tenant });
    assert.equal(reviews.length, 1);
    assert.equal(reviews[0].id, made.reviewId);
    assert.equal(reviews[0].workflow_id, cddReviewWorkflowId(tenant, made.reviewId));
    assert.equal(reviews[0].motivo, 'prima_revisione');
    // High risk: the first periodic review one year on (setting cdd.review_years_high).
    const due = new Date(reviews[0].due_at).getTime();
    assert.ok(Math.abs(due - (Date.now() + 365 * DAY)) < 2 * DAY, new Date(due).toISOString());
    assert.equal(new Date(made.reviewDueAt).getTime(), due);

    // Screening subjects of the case now belong to the new records.
    const subjects = await db('screening_subjects').where({ cod_azienda: tenant }).orderBy('cod_anagrafe');
    assert.deepEqual(subjects.map((s) => s.cod_anagrafe), ['ANA-000001', 'ANA-000002', 'ANA-000003', 'ANA-000004']);

    const row = await db('onboarding_cases').where({ id: caseId }).first();
    assert.equal(row.stato, 'approved');
    assert.equal(row.cod_anagrafe, 'ANA-000001');
    assert.equal(row.approved_by, coA.cod_utente);
    assert.equal(row.second_approver_username, coB.username);
    assert.ok(row.decided_at);
    assert.equal(row.declarations_ceremony_id, decl.ceremonyId);
    assert.equal(row.travel_rule.stato, 'completed');
    assert.equal(row.travel_rule.ceremony_id, tr.ceremonyId);

    const actions = (await db('audit_events').where({ cod_azienda: tenant }).orderBy('id')).map((a) => a.action);
    assert.equal(actions.filter((a) => a === 'anagrafe.create').length, 4);
    assert.equal(actions.filter((a) => a === 'onboarding.materialise').length, 1);
    const created = await db('audit_events').where({ cod_azienda: tenant, action: 'onboarding.create' }).first();
    assert.ok(!JSON.stringify(created.data).includes('richiedente@example.test'), 'no e-mail in the audit trail');
    assert.equal((await verifyAuditChain(db, tenant)).ok, true);

    const notes = await db('notifications').where({ cod_azienda: tenant, entity_id: caseId });
    assert.equal(notes.length, 3, 'two compliance officers and one analyst');
    assert.ok(notes.every((n) => n.link === `/admin/onboarding/cases/${caseId}`));
  });

  it('one person in two companies is one record: a second approval matches the representative and the owner', async () => {
    const tenant = await env.createTenant();
    const co = await env.createUser({ tenant, roles: ['co'] });
    // Valid tax ids (check characters verified), so the registry can recognise the people again.
    const rep = { ...companyAnagrafe().legale_rappresentante, nome: 'Giulia', cognome: 'Verdi', codice_fiscale: 'VRDGLI80A41H501S' };
    const owner = { ...companyOwners()[0]!, nome: 'Mario', cognome: 'Rossi', codice_fiscale: 'rssmra85t10a562s', percentuale: 100 };
    const approve = async (denominazione: string, piva: string) => {
      const { caseId, step, edit } = await newCase(tenant);
      await edit({ kind: 'section', section: 'subject_type', data: { subject_type: 'societa' } });
      await edit({ kind: 'section', section: 'anagrafe', data: { ...companyAnagrafe(), denominazione, codice_fiscale: piva, partita_iva: piva, legale_rappresentante: rep } });
      await edit({ kind: 'section', section: 'ubo', data: { titolari: [owner] } });
      await edit({ kind: 'section', section: 'cdd_answers', data: { versione: CDD_SCHEMA_VERSION, risposte: companyCdd() } });
      const made = await acts.materialiseOnboardingCustomer({ ...step({ id: co.cod_utente, username: co.username, roles: ['co'] }), firstApprover: null });
      return { caseId, made };
    };
    const first = await approve('Alfa S.r.l.', '06363391001');
    const second = await approve('Beta S.p.A.', '00743110157');
    assert.deepEqual([first.made.codAnagrafe, second.made.codAnagrafe], ['ANA-000001', 'ANA-000004']);

    const db = env.ownerDb;
    const anagrafe = await db('anagrafe').where({ cod_azienda: tenant }).orderBy('cod_anagrafe');
    assert.deepEqual(anagrafe.map((a) => [a.cod_anagrafe, a.denominazione, a.chiave_fiscale]), [
      ['ANA-000001', 'Alfa S.r.l.', 'PIVA:06363391001'], ['ANA-000002', 'Giulia Verdi', 'CF:VRDGLI80A41H501S'],
      ['ANA-000003', 'Mario Rossi', 'CF:RSSMRA85T10A562S'], ['ANA-000004', 'Beta S.p.A.', 'PIVA:00743110157'],
    ]);
    const legami = await db('legami').where({ cod_azienda: tenant, cod_anagrafe_da: 'ANA-000004' }).orderBy('tipo');
    assert.deepEqual(legami.map((l) => [l.cod_anagrafe_a, l.tipo]), [['ANA-000002', 'legale_rappresentante'], ['ANA-000003', 'titolare_effettivo']]);
    const roles = await db('rapporti_soggetti').where({ cod_azienda: tenant, cod_anagrafe: 'ANA-000003' }).orderBy('cod_rapporto');
    assert.deepEqual(roles.map((r) => [r.cod_rapporto, r.ruolo]), [['RAP-000001', 'titolare_effettivo'], ['RAP-000002', 'titolare_effettivo']]);
    assert.equal((await db('audit_events').where({ cod_azienda: tenant, action: 'anagrafe.create' })).length, 4);

    // The first company onboarded again (a second relationship): the same record, its links not repeated.
    const again = await approve('Alfa S.r.l.', '06363391001');
    assert.equal(again.made.codAnagrafe, 'ANA-000001');
    assert.equal((await db('anagrafe').where({ cod_azienda: tenant })).length, 4);
    assert.equal((await db('legami').where({ cod_azienda: tenant, cod_anagrafe_da: 'ANA-000001' })).length, 2);
    assert.deepEqual((await db('rapporti').where({ cod_azienda: tenant, cod_anagrafe: 'ANA-000001' }).orderBy('cod_rapporto')).map((r) => r.cod_rapporto), ['RAP-000001', 'RAP-000003']);
  });

  it('records transitions once and keeps the reviewer\'s message for the resume link', async () => {
    const tenant = await env.createTenant();
    const analyst = await env.createUser({ tenant, roles: ['analyst'] });
    const { caseId, step } = await newCase(tenant, 'info@example.test');
    const by = step({ id: analyst.cod_utente, username: analyst.username, roles: ['analyst'] });
    const t = { ...by, action: 'request-info' as const, from: 'in_review' as const, to: 'info_requested' as const, extra: { message: 'Manca la visura aggiornata' } };
    await acts.recordOnboardingTransition(t);
    await acts.recordOnboardingTransition(t);
    assert.equal((await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'onboarding.request-info' })).length, 1);
    const after = await env.mailbox.cursor();
    await acts.sendOnboardingLink({ ...by, purpose: 'info_request' });
    await acts.sendOnboardingLink({ ...by, purpose: 'info_request' });
    const queued = await env.ownerDb('outbox_messages').where({ cod_azienda: tenant, entity_id: caseId });
    assert.deepEqual(queued.map((q) => [q.kind, q.recipient]), [['info_request', 'info@example.test']], 'a retry of the step queues nothing more');
    const msg = await env.mailbox.waitFor('info@example.test', { after });
    assert.match(msg.text, /Manca la visura aggiornata/);
    assert.match(linkIn(msg), /\/api\/v1\/onboarding\/resume\?token=/);
    const links = await env.ownerDb('onboarding_links').where({ case_id: caseId });
    assert.equal(links.length, 1);
    assert.equal(links[0].purpose, 'info_request');
    // Default link lifetime: 72 hours.
    assert.ok(Math.abs(new Date(links[0].expires_at).getTime() - Date.now() - 72 * 3_600_000) < 60_000);
    const audit = await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'onboarding.link' }).first();
    assert.ok(!JSON.stringify(audit.data).includes(linkIn(msg).split('token=')[1]!), 'no token in the audit trail');
  });

  it('reports what an incomplete case lacks and stores it on the case', async () => {
    const tenant = await env.createTenant();
    const { caseId, step, edit } = await newCase(tenant);
    await edit({ kind: 'section', section: 'subject_type', data: { subject_type: 'persona_fisica' } });
    await edit({ kind: 'section', section: 'anagrafe', data: { nome: 'Mario', cognome: '' } });
    const v = await acts.validateOnboarding(step());
    assert.equal(v.ok, false);
    const paths = v.issues.map((i) => i.path);
    for (const p of ['anagrafe.cognome', 'anagrafe.residenza.via', 'documenti.documento_identita.soggetto', 'cdd_answers', 'countries']) assert.ok(paths.includes(p), p);
    assert.ok(!paths.some((p) => p.startsWith('ubo')), 'a natural person has no owners step');
    const row = await env.ownerDb('onboarding_cases').where({ id: caseId }).first();
    assert.equal(row.validation.ok, false);
    assert.equal(row.validation.issues.length, v.issues.length);
    await assert.rejects(acts.validateOnboarding({ ...step(), caseId: randomUUID() }), (e: Error & { type?: string }) => e.type === 'ONBOARDING_NOT_FOUND');
  });

  it('erases a draft: rows, files not shared with another case, personal fields', async () => {
    const tenant = await env.createTenant();
    const shared = randomBytes(128);
    const other = await newCase(tenant);
    const otherDoc = await other.upload('documento_identita', 'soggetto', shared);
    const { caseId, step, edit, upload } = await newCase(tenant, 'cancellami@example.test');
    await edit({ kind: 'section', section: 'subject_type', data: { subject_type: 'societa' } });
    await edit({ kind: 'section', section: 'anagrafe', data: companyAnagrafe() });
    await edit({ kind: 'section', section: 'ubo', data: { titolari: companyOwners() } });
    const own = await upload('visura_camerale', 'soggetto');
    const ownerDoc = await upload('documento_identita', UBO_B);
    await upload('documento_identita', 'soggetto', shared);
    // Dropping an owner drops that owner's documents (and the file nobody else uses).
    await edit({ kind: 'section', section: 'ubo', data: { titolari: [companyOwners()[0]] } });
    assert.equal(await blobExists(tenant, ownerDoc.sha256), false);
    // Deleting a document removes its file.
    await edit({ kind: 'document-delete', documentId: own.id });
    assert.equal(await blobExists(tenant, own.sha256), false);
    const again = await upload('visura_camerale', 'soggetto');
    await edit({ kind: 'wallet-add', wallet: { id: randomUUID(), rete: 'BTC', indirizzo: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', tipo: 'custodial', vasp_nome: 'Exchange' } });
    await edit({ kind: 'travel-rule-sign', declaration: travelRuleDeclaration() });
    await acts.prepareOnboardingSigning({ ...step(), purpose: 'travel_rule' });
    await env.ownerDb('onboarding_sessions').insert({ id_hash: randomBytes(16).toString('hex'), cod_azienda: tenant, case_id: caseId, expires_at: new Date(Date.now() + DAY) });
    // A message to the applicant still in the outbox (a resume link asked for and not yet sent).
    await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => env.deps.outbox.enqueue(trx, {
      codAzienda: tenant, kind: 'resume', to: 'richiedente@example.test', subject: 'Il link', text: 'Alfa Beta', entity: { type: 'onboarding_case', id: caseId }, dedupKey: `erase-test:${caseId}`,
    }));

    const erase = step();
    await acts.eraseOnboardingCase(erase);
    await acts.eraseOnboardingCase(erase);

    const db = env.ownerDb;
    const row = await db('onboarding_cases').where({ id: caseId }).first();
    assert.equal(row.stato, 'erased');
    assert.ok(row.erased_at);
    assert.equal(row.email, null);
    assert.deepEqual([row.anagrafe, row.ubo, row.cdd_answers, row.countries, row.travel_rule], [{}, [], {}, [], {}]);
    assert.deepEqual([row.validation, row.screening, row.risk, row.pep], [null, null, null, null]);
    for (const table of ['onboarding_documents', 'onboarding_wallets', 'onboarding_links', 'onboarding_sessions']) {
      assert.equal((await db(table).where({ case_id: caseId })).length, 0, table);
    }
    assert.equal((await db('outbox_messages').where({ entity_id: caseId })).length, 0, 'no message to the applicant is kept or sent');
    assert.equal(await blobExists(tenant, again.sha256), false);
    assert.equal(await blobExists(tenant, otherDoc.sha256), true, 'the other case still uses these bytes');
    assert.equal((await db('onboarding_documents').where({ case_id: other.caseId })).length, 1);
    const events = await db('audit_events').where({ cod_azienda: tenant, entity_id: caseId, action: 'onboarding.erase' });
    assert.equal(events.length, 1);
    assert.ok(!JSON.stringify(events[0].data).includes('Alfa Beta'));
    assert.equal((await verifyAuditChain(db, tenant)).ok, true);
  });

  it('refuses a document for a beneficial owner no longer declared (an upload racing an owners change)', async () => {
    const tenant = await env.createTenant();
    const { caseId, edit, upload } = await newCase(tenant);
    await edit({ kind: 'section', section: 'subject_type', data: { subject_type: 'societa' } });
    await edit({ kind: 'section', section: 'ubo', data: { titolari: companyOwners() } });
    await upload('documento_identita', UBO_B);
    await edit({ kind: 'section', section: 'ubo', data: { titolari: [companyOwners()[0]] } });
    await assert.rejects(upload('documento_identita', UBO_B), /no longer declared/);
    assert.deepEqual((await env.ownerDb('onboarding_documents').where({ case_id: caseId })).map((d: { riferimento: string }) => d.riferimento), []);
  });

  it('purges an expired draft but keeps it expired, and refuses to purge a submitted case', async () => {
    const tenant = await env.createTenant();
    const { caseId, step, edit, upload } = await newCase(tenant, 'abbandonata@example.test');
    await edit({ kind: 'section', section: 'subject_type', data: { subject_type: 'persona_fisica' } });
    await edit({ kind: 'section', section: 'anagrafe', data: { nome: 'Lucia', cognome: 'Gialli' } });
    const doc = await upload('documento_identita', 'soggetto');
    await acts.recordOnboardingTransition({ ...step(), action: 'expire', from: 'draft', to: 'expired', extra: { reason: 'draft_idle', days: 30 } });
    await acts.purgeExpiredDraft(step());
    const row = await env.ownerDb('onboarding_cases').where({ id: caseId }).first();
    assert.equal(row.stato, 'expired');
    assert.ok(row.erased_at);
    assert.equal(row.email, null);
    assert.deepEqual(row.anagrafe, {});
    assert.equal(await blobExists(tenant, doc.sha256), false);
    assert.equal((await env.ownerDb('audit_events').where({ cod_azienda: tenant, entity_id: caseId, action: 'onboarding.purge' })).length, 1);

    const kept = await newCase(tenant, 'inviata@example.test');
    await env.ownerDb('onboarding_cases').where({ id: kept.caseId }).update({ submitted_at: new Date() });
    await assert.rejects(acts.purgeExpiredDraft(kept.step()), /AML retention/);
    assert.equal((await env.ownerDb('onboarding_cases').where({ id: kept.caseId }).first()).email, 'inviata@example.test');
  });

  it('marks a periodic review due once and tells the compliance officers', async () => {
    const tenant = await env.createTenant();
    await env.createUser({ tenant, roles: ['co'] });
    await env.createUser({ tenant, roles: ['viewer'] });
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: 'ANA-000009', tipo_soggetto: 'persona_fisica', denominazione: 'X', created_by: 'test' });
    const reviewId = randomUUID();
    await env.ownerDb('cdd_reviews').insert({
      id: reviewId, cod_azienda: tenant, cod_anagrafe: 'ANA-000009', motivo: 'prima_revisione', classe_rischio: 'basso', due_at: new Date(), workflow_id: cddReviewWorkflowId(tenant, reviewId),
    });
    // The review belongs to the CDD process now: the onboarding approval only starts it.
    const cdd = createCddReviewActivities({ db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: env.deps.config });
    await cdd.markCddReviewDue({ codAzienda: tenant, reviewId, codAnagrafe: 'ANA-000009' });
    await cdd.markCddReviewDue({ codAzienda: tenant, reviewId, codAnagrafe: 'ANA-000009' });
    assert.equal((await env.ownerDb('cdd_reviews').where({ id: reviewId }).first()).stato, 'scaduta');
    const notes = await env.ownerDb('notifications').where({ cod_azienda: tenant, entity_id: reviewId });
    assert.equal(notes.length, 1);
    assert.equal(notes[0].tipo, 'cdd_review_due');
    assert.equal((await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'cdd_review.due' })).length, 1);
  });
});
