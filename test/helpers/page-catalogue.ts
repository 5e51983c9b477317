import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { loadJurisdiction } from '../../src/domains/filing/goaml/jurisdiction-loader';
import { generatedReport, seedReportingMonth } from './reporting-fixture';
import { parseReportXml, type GoamlNode } from '../../src/domains/filing/goaml/report-xml';
import { DocumentStore } from '../../src/domains/onboarding';
import { linkToken, openCase } from '../api/onboarding-fixtures';
import type { TestEnv, TestUser } from './env';
import type { TestClient } from './http-client';
import { caseInReview, waitFor } from './onboarding';
import { signInWithTotp } from './browser';
import { seedRiskBatchPages } from './risk-batch-seed';
import { seedRiskPortfolio } from './risk-views-fixture';
import { seedDocumentPages } from './document-pages-seed';
import { ivms101Payload } from './travel-rule-fixture';
import { seedMonitoringPages } from './monitoring-fixture';
import { seedMonitoringEvalPages } from './monitoring-eval-pages-seed';

/**
 * Every page the product serves, each with a record to show and the person who opens it,
 * seeded in a tenant of its own. The page tests (formatting, accessibility, screenshots) walk
 * it; test/api/page-catalogue.test.ts fails when a registered page is missing from it, so a
 * new area's pages are checked the day they are added.
 */

export type Visitor =
  | { kind: 'staff'; user: TestUser }
  /** Nobody signed in. */
  | { kind: 'anonymous' }
  /** Signed in with the password only: the second factor is still to give. */
  | { kind: 'password-only'; user: TestUser }
  /** The applicant of an onboarding case, through a fresh single-use resume link. */
  | { kind: 'applicant'; caseId: string };

export interface CataloguePage {
  /** Short name, also the screenshot's file name. */
  name: string;
  path: string;
  visitor: Visitor;
  /** The status the page answers with when it is not 200 (an error page is a page too). */
  status?: number;
}

export interface PageCatalogue {
  tenant: string;
  users: Record<'co' | 'co2' | 'analyst' | 'auditor' | 'admin' | 'superadmin' | 'newcomer', TestUser>;
  pages: CataloguePage[];
}

/**
 * Registered GET pages no catalogue entry opens, and why. Everything else a GET route of
 * kind 'page' serves must be in the catalogue.
 */
export const NOT_PAGES: Record<string, string> = {
  '/logout': 'signs out and redirects',
  '/admin': 'redirects to the organisation pages',
  '/onboarding': 'redirects to /onboarding/',
  '/partials/notification-dropdown': 'an htmx fragment of the staff layout, drawn on every staff page',
  '/partials/anagrafe-table': 'an htmx fragment (the customer list\'s table), drawn inside /anagrafe',
  '/partials/alert-table': 'an htmx fragment (the alert list\'s table), drawn inside /alert',
  '/onboarding/step/:n/riga': 'an htmx fragment (one more row of a step), drawn inside the step page',
  '/health': 'JSON for the load balancer',
  '/auth/me': 'JSON of the signed-in user',
  '/aziende/:cod/logo': 'the tenant\'s logo, an image',
  '/cdd/evidence/:codPratica/:evidenceId': 'an evidence file of a CDD task, a download',
  // risk SELF
  '/rischio/autovalutazione/:anno/export.pdf': 'the self-assessment report, a PDF download',
  '/rischio/autovalutazione/:anno/export.xlsx': 'the self-assessment workbook, an XLSX download',
  // verifications: documents
  '/documenti/:cod/download': 'a copy of a document (any version), a download',
  // monitoring: evaluation paths
  '/transazioni/:id/decisione': 'an htmx fragment (a movement\'s decision trace), drawn inside /transazioni/:id',
  // SOS
  '/dossier/sos/:codSegnalazione': 'a suspicious-transaction report as PDF or XML, a download',
  // reporting (issue 25): a generated report's exports
  '/reporting/:id/csv': 'a regulatory report\'s lines as CSV, a download',
  '/reporting/:id/xlsx': 'a regulatory report\'s lines as XLSX, a download',
  // document spine
  '/documenti/spine/:codSpine/download': 'a document of the spine, a download',
  // customer dossiers
  '/dossier/download/:codAnagrafe': 'a customer dossier as PDF or its signed manifest, a download',
};

const SHARED_SANCTIONS = join(process.cwd(), '..', 'shared', 'data', 'sanctions');

/** A UN-listed person: screening them raises a match on the real UN list. */
const UN_PERSON = { nome: 'Eric Badege', tipo: 'person', data_nascita: '1971', nazionalita: 'CD' };

async function importUnList(env: TestEnv, platform: TestClient): Promise<void> {
  const previous = process.env.SANCTIONS_DATA_DIR;
  const dir = mkdtempSync(join(tmpdir(), 'cp-catalogue-sanctions-'));
  cpSync(join(SHARED_SANCTIONS, 'un'), join(dir, 'un'), { recursive: true });
  process.env.SANCTIONS_DATA_DIR = dir;
  try {
    // One import at a time: when another test file's import runs, wait for it and import ours.
    const started = await waitFor('a sanctions import started', async () => {
      const r = await platform.post('/api/v1/screening/import', {});
      if (r.status === 409) { await new Promise((ok) => setTimeout(ok, 1000)); return undefined; }
      assert.equal(r.status, 202, r.text);
      return r.body as { workflow_id: string };
    }, 180_000);
    await env.temporal.workflow.getHandle(started.workflow_id).result();
  } finally {
    if (previous === undefined) delete process.env.SANCTIONS_DATA_DIR; else process.env.SANCTIONS_DATA_DIR = previous;
    rmSync(dir, { recursive: true, force: true });
  }
}

const DOC = Buffer.from('Contratto quadro: testo integrale.').toString('base64');

export async function seedPageCatalogue(env: TestEnv): Promise<PageCatalogue> {
  const tenant = await env.createTenant();
  const [co, co2, analyst, auditor, admin, superadmin, newcomer] = await Promise.all([
    env.createUser({ tenant, roles: ['co'] }),
    env.createUser({ tenant, roles: ['co'] }),
    env.createUser({ tenant, roles: ['analyst'] }),
    env.createUser({ tenant, roles: ['auditor'] }),
    env.createUser({ tenant, roles: ['admin'] }),
    env.createUser({ tenant: null, roles: ['superadmin'] }),
    env.createUser({ tenant, roles: ['analyst'], totp: false }),
  ]);
  const [coApi, co2Api, analystApi, platform] = await Promise.all([env.login(co), env.login(co2), env.login(analyst), env.login(superadmin)]);

  // Cases: one open and assigned, one waiting for a second officer to confirm its closure.
  const newCase = (titolo: string, priorita: string, assegnatario?: string) => ({
    titolo, tipo: 'indagine', priorita, descrizione: 'Bonifici frazionati verso un conto estero nello stesso giorno.', ...(assegnatario ? { assegnatario } : {}),
  });
  const open = await analystApi.post('/api/cases', newCase('Operazioni frazionate su conto corrente', 'alta', analyst.cod_utente));
  assert.equal(open.status, 201, open.text);
  const closing = await coApi.post('/api/cases', newCase('Verifica titolare effettivo di una società fiduciaria', 'media'));
  assert.equal(closing.status, 201, closing.text);
  const asked = await co2Api.put(`/api/cases/${closing.body.id}/close`, { esito: 'nessuna_anomalia', motivazione: 'Documentazione completa e coerente con il profilo del cliente.' });
  assert.equal(asked.status, 200, asked.text);

  // EDD: a PEP customer with one case still being worked and one waiting for a second officer.
  await env.ownerDb('anagrafe').insert({
    cod_azienda: tenant, cod_anagrafe: 'ANA-EDD001', tipo_soggetto: 'persona_fisica', denominazione: 'Giulia Verdi', nome: 'Giulia', cognome: 'Verdi',
    pep: true, classe_rischio: 'alto', nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test',
  });
  const eddOpen = await analystApi.post('/api/edd', { cod_anagrafe: 'ANA-EDD001', descrizione: 'Consigliere regionale dal 2021.' });
  assert.equal(eddOpen.status, 201, eddOpen.text);
  const eddPending = await analystApi.post('/api/edd', { cod_anagrafe: 'ANA-EDD001', motivi: ['pep'], misure: ['origine_fondi'] });
  assert.equal(eddPending.status, 201, eddPending.text);
  const eddStep = (await analystApi.get(`/api/edd/${eddPending.body.id}`)).body.steps[0].id as string;
  assert.equal((await analystApi.post(`/api/edd/${eddPending.body.id}/step/${eddStep}/completa`, { esito: 'Redditi da lavoro dipendente documentati', riferimento_evidenza: 'FASC-1' })).status, 200);
  assert.equal((await analystApi.post(`/api/edd/${eddPending.body.id}/approva`, {})).status, 200);

  // Travel rule: one transfer held for the beneficiary's name, one approved (verifications part 5).
  const trrHeld = await analystApi.post('/api/v1/travel-rule/transazioni', {
    riferimento_esterno: 'CAT-TRR-1', direzione: 'in_entrata', asset: 'ETH', rete: 'ETH', importo: '1.25', importo_eur: 3400, indirizzo_originatore: '0x1111111111111111111111111111111111111111',
    indirizzo_beneficiario: '0x2222222222222222222222222222222222222222', tipo_wallet: 'vasp', vasp_controparte: 'Krypto Bank AG', ivms101: ivms101Payload({ senzaNomeBeneficiario: true }),
  });
  assert.equal(trrHeld.status, 201, trrHeld.text);
  assert.equal((await analystApi.post(`/api/v1/travel-rule/transazioni/${trrHeld.body.cod_transazione}/screen`, {})).status, 200);
  assert.equal((await coApi.put(`/api/v1/travel-rule/transazioni/${trrHeld.body.cod_transazione}/decisione`, { decisione: 'held', motivo: 'Richiesto il nome del beneficiario' })).status, 200);
  const trrApproved = await analystApi.post('/api/v1/travel-rule/transazioni', {
    riferimento_esterno: 'CAT-TRR-2', direzione: 'in_uscita', asset: 'BTC', rete: 'BTC', importo: '0.0125', importo_eur: 850, indirizzo_originatore: '0x1111111111111111111111111111111111111111',
    indirizzo_beneficiario: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh', tipo_wallet: 'self_hosted', ivms101: ivms101Payload(),
  });
  assert.equal(trrApproved.status, 201, trrApproved.text);
  assert.equal((await analystApi.post(`/api/v1/travel-rule/transazioni/${trrApproved.body.cod_transazione}/screen`, {})).status, 200);
  assert.equal((await coApi.put(`/api/v1/travel-rule/transazioni/${trrApproved.body.cod_transazione}/decisione`, { decisione: 'approved' })).status, 200);

  // A screening match on the real UN list.
  await importUnList(env, platform);
  const run = await analystApi.post('/api/v1/screening/run', UN_PERSON);
  assert.equal(run.status, 200, run.text);
  const matches = await analystApi.get('/api/v1/screening/matches');
  assert.ok(matches.body.total >= 1, 'the listed person raised a match');
  const matchId = matches.body.items[0].id as string;

  // An e-signature ceremony sent to a signer, and a company's onboarding waiting for review
  // (its declarations signed: a ceremony with a receipt).
  const ceremony = await coApi.post('/api/v1/esign/ceremony/start', { signer: { nome: 'Giulia Bianchi', email: 'giulia.bianchi@example.test' }, document: { nome: 'contratto.pdf', contenuto_base64: DOC } });
  assert.equal(ceremony.status, 201, ceremony.text);
  const review = await caseInReview(env, tenant);
  const signed = await env.ownerDb('esign_ceremonies').where({ cod_azienda: tenant, stato: 'signed' }).first('id');
  assert.ok(signed, 'the onboarding declarations were signed');
  const draft = await openCase(env, tenant, { subjectType: 'societa' });

  // A customer registered through the records form, then edited (a history of two versions).
  const customer = await seedCustomer(coApi);
  // A customer dossier of it (docs/dossier.md), generated with every section.
  const dossier = await coApi.post('/api/dossier/generate', { cod_anagrafe: customer, sezioni: ['identita', 'rapporti', 'titolari', 'documenti', 'cdd', 'edd', 'rischio', 'screening', 'movimenti', 'casi'] });
  assert.equal(dossier.status, 201, dossier.text);
  const cdd = await seedCddPages(env, tenant, analystApi);
  await seedSelfAssessment(coApi); // risk SELF
  // A finished customer import with row errors (the progress page shows counts and the report link).
  const importId = randomUUID();
  await env.ownerDb('import_jobs').insert({
    id: importId, cod_azienda: tenant, tipo: 'clienti', formato: 'csv', nome_file: 'clienti-gennaio.csv', sha256: 'a'.repeat(64), dimensione: 2048,
    stato: 'completato', righe_lette: 120, righe_valide: 117, righe_importate: 110, righe_gia_presenti: 7, righe_errate: 3,
    workflow_id: `import:${tenant}:${importId}`, created_by: analyst.username, started_at: new Date(), finished_at: new Date(),
  });

  // CONFIG (risk model pages): a draft opened through the page, so both the draft and the version in force have rules to show.
  const riskConfig = await seedRiskConfigPages(env, tenant, coApi);
  // BATCH: a completed dry run for /rischio/scenari.
  const riskBatch = await seedRiskBatchPages(env, tenant, coApi);
  // VIEWS (risk): a scored portfolio with assessments in every listed state, and one real assessment through its workflow.
  const riskSeed = await seedRiskPortfolio(env.ownerDb, tenant, { overrideBy: analyst.cod_utente });
  // verifications: documents (a passport in two versions, verified; an identity card whose verification failed).
  const documents = await seedDocumentPages(env, tenant, coApi);
  // document spine: the verified passport as the spine indexed it (its versions share no bytes; held, to show the hold).
  const spineEntry = await env.ownerDb('documenti_spine').where({ cod_azienda: tenant, record_codice: documents.verified }).orderBy('created_at', 'desc').first('cod_spine') as { cod_spine: string };
  await env.ownerDb('documenti_spine').where({ cod_azienda: tenant, cod_spine: spineEntry.cod_spine })
    .update({ blocco_legale: true, blocco_motivo: 'Richiesta dell\'autorità giudiziaria', blocco_by: 'catalogo', blocco_at: new Date() });
  const riskAssessment = await analystApi.post('/api/risk/calculate/ANA-EDD001', {});
  assert.equal(riskAssessment.status, 201, riskAssessment.text);
  const verifications = await seedVerificationPages(env, tenant, analystApi); // console (issue 13)
  // monitoring (issue 23): customers with movements, a rule in force with a draft, alerts new, waiting for a second person, escalated.
  const monitoring = await seedMonitoringPages(env, tenant, coApi, analystApi, analyst.cod_utente);
  const monitoringEval = await seedMonitoringEvalPages(env, tenant, coApi, analystApi); // monitoring: evaluation paths
  const filing = await seedFilingPages(analystApi); // filing (issue 24): a classified STR whose validation failed
  // SOS (issue 24): a report written by the analyst on the EDD customer and submitted to the delegate.
  const sos = await analystApi.post('/api/sos/reports', {
    cod_anagrafe: 'ANA-EDD001', oggetto: 'Bonifici ricorrenti verso un paese terzo', descrizione: 'Bonifici mensili verso una società estera senza giustificazione economica documentata.',
    content: { operazioni: [{ data_operazione: '2026-10-01', importo: 9_800, valuta: 'EUR', causale: 'Bonifico estero' }], fenomeni: ['F02'], indicatori: [{ indicatore: 11, sottoindice: '11.1' }] },
  });
  assert.equal(sos.status, 201, sos.text);
  assert.equal((await analystApi.put(`/api/sos/reports/${sos.body.id}/transition`, { action: 'submit' })).status, 200);
  // reporting (issue 25): a comunicazione oggettiva generated from a seeded month of cash at the counter.
  await seedReportingMonth(env, tenant, analystApi, '2025-03', 'catalogue');
  const report = await analystApi.post('/api/reporting/generate', { tipo: 'comunicazione_oggettiva', periodo: '2025-03' });
  assert.equal(report.status, 202, report.text);
  await generatedReport(analystApi, report.body.items[0].id);

  const staff = (user: TestUser): Visitor => ({ kind: 'staff', user });
  const applicant = (caseId: string): Visitor => ({ kind: 'applicant', caseId });
  const anonymous: Visitor = { kind: 'anonymous' };
  const signing = new URL(ceremony.body.signing_url as string);

  const pages: CataloguePage[] = [
    { name: 'login', path: '/login', visitor: anonymous },
    { name: 'totp-verify', path: '/totp/verify', visitor: { kind: 'password-only', user: co2 } },
    { name: 'totp-setup', path: '/totp/setup', visitor: { kind: 'password-only', user: newcomer } },
    { name: 'home-co', path: '/', visitor: staff(co) },
    { name: 'home-superadmin', path: '/', visitor: staff(superadmin) },
    { name: 'dashboard', path: '/dashboard', visitor: staff(analyst) },
    { name: 'casi', path: '/casi', visitor: staff(co) },
    { name: 'casi-nuovo', path: '/casi/nuovo', visitor: staff(co) },
    { name: 'caso-aperto', path: `/casi/${open.body.id}`, visitor: staff(analyst) },
    { name: 'caso-in-chiusura', path: `/casi/${closing.body.id}`, visitor: staff(co) },
    { name: 'filing', path: '/filing', visitor: staff(co) },
    { name: 'filing-compose', path: '/filing/compose', visitor: staff(analyst) },
    { name: 'filing-workbench', path: '/filing/workbench', visitor: staff(co) },
    { name: 'filing-dettaglio', path: `/filing/${filing}`, visitor: staff(analyst) },
    { name: 'anagrafe', path: '/anagrafe', visitor: staff(analyst) },
    { name: 'anagrafe-nuovo', path: '/anagrafe/nuovo', visitor: staff(co) },
    { name: 'anagrafe-scheda', path: `/anagrafe/${customer}`, visitor: staff(co) },
    { name: 'anagrafe-modifica', path: `/anagrafe/${customer}/modifica`, visitor: staff(co) },
    { name: 'anagrafe-fascicolo', path: `/anagrafe/${customer}/dossier`, visitor: staff(co) },
    // customer dossiers
    { name: 'dossier', path: '/dossier', visitor: staff(auditor) },
    { name: 'dossier-dettaglio', path: `/dossier/${dossier.body.id}`, visitor: staff(co) },
    { name: 'dossier-builder', path: `/dossier/builder/${customer}`, visitor: staff(analyst) },
    { name: 'cdd', path: '/cdd', visitor: staff(co) },
    { name: 'cdd-nuovo', path: '/cdd/nuovo?q=Esposito', visitor: staff(analyst) },
    { name: 'cdd-panoramica', path: '/cdd/overview', visitor: staff(co) },
    { name: 'cdd-revisioni-periodiche', path: '/cdd/refresh-queue', visitor: staff(co) },
    { name: 'cdd-verifica-aperta', path: `/cdd/${cdd.open.id}`, visitor: staff(co) },
    { name: 'cdd-verifica-in-revisione', path: `/cdd/${cdd.review.id}`, visitor: staff(analyst) },
    { name: 'cdd-esegui', path: `/cdd/${cdd.working.id}/esegui`, visitor: staff(analyst) },
    { name: 'cdd-evidenze', path: `/cdd/evidence/${cdd.review.code}`, visitor: staff(auditor) },
    { name: 'cdd-storico', path: `/cdd/history/${cdd.review.code}`, visitor: staff(co) },
    { name: 'cdd-revisione', path: `/cdd/review/${cdd.review.code}`, visitor: staff(co) },
    // VIEWS (risk)
    { name: 'rischio', path: '/rischio', visitor: staff(co) },
    { name: 'rischio-portfolio', path: '/rischio/portfolio', visitor: staff(auditor) },
    { name: 'rischio-heatmap', path: '/rischio/heatmap', visitor: staff(analyst) },
    { name: 'rischio-matrice', path: '/rischio/matrice', visitor: staff(co) },
    { name: 'rischio-matrice-cella', path: '/rischio/matrice/4/4', visitor: staff(co) },
    { name: 'rischio-approvazioni', path: '/rischio/approvazioni', visitor: staff(co2) },
    { name: 'rischio-valutazione', path: `/rischio/${riskAssessment.body.cod_valutazione}`, visitor: staff(analyst) },
    { name: 'rischio-valutazione-da-confermare', path: `/rischio/${riskSeed.assessments.pending.cod}`, visitor: staff(co) },
    // end VIEWS (risk)
    // monitoring (issue 23)
    { name: 'alert', path: '/alert', visitor: staff(co) },
    { name: 'alert-nuovo', path: '/alert/nuovo?cod_anagrafe=C-1', visitor: staff(analyst) },
    { name: 'alert-nuovo-dettaglio', path: `/alert/${monitoring.alerts.fresh}`, visitor: staff(analyst) },
    { name: 'alert-in-chiusura', path: `/alert/${monitoring.alerts.closing}`, visitor: staff(co) },
    { name: 'alert-escalato', path: `/alert/${monitoring.alerts.escalated}`, visitor: staff(auditor) },
    { name: 'kyt-alert', path: '/kyt/alerts', visitor: staff(analyst) },
    { name: 'transazioni', path: '/transazioni', visitor: staff(analyst) },
    { name: 'transazione', path: `/transazioni/${monitoring.movement}`, visitor: staff(co) },
    { name: 'monitoraggio-regole', path: '/monitoraggio/regole', visitor: staff(co) },
    { name: 'monitoraggio-regola', path: `/monitoraggio/regole/${monitoring.ruleId}`, visitor: staff(co) },
    { name: 'monitoraggio-regola-nuova', path: '/monitoraggio/regole/nuova?tipologia=strutturazione_contanti', visitor: staff(co) },
    { name: 'monitoraggio-regola-modifica', path: `/monitoraggio/regole/${monitoring.ruleId}/modifica`, visitor: staff(co) },
    // console (issue 13): the KYC and KYB consoles
    { name: 'kyc', path: '/admin/kyc', visitor: staff(analyst) },
    { name: 'kyb', path: '/admin/kyb', visitor: staff(co) },
    { name: 'kyc-verifica', path: `/admin/kyc/${verifications.kyc}`, visitor: staff(analyst) },
    { name: 'kyb-verifica', path: `/admin/kyb/${verifications.kyb}`, visitor: staff(co) },
    { name: 'travel-rule', path: '/admin/travel-rule', visitor: staff(co) },
    { name: 'travel-rule-sospesa', path: `/admin/travel-rule/${trrHeld.body.cod_transazione}`, visitor: staff(analyst) },
    { name: 'travel-rule-approvata', path: `/admin/travel-rule/${trrApproved.body.cod_transazione}`, visitor: staff(auditor) },
    { name: 'edd', path: '/edd', visitor: staff(co) },
    { name: 'edd-nuovo', path: '/edd/nuovo?cod_anagrafe=ANA-EDD001', visitor: staff(analyst) },
    { name: 'edd-aperta', path: `/edd/${eddOpen.body.id}`, visitor: staff(analyst) },
    { name: 'edd-in-approvazione', path: `/edd/${eddPending.body.id}`, visitor: staff(co) },
    // risk SELF: the self-assessment, the residual matrix, controls, RAF, KRI, decisions
    { name: 'rischio-autovalutazione', path: '/rischio/autovalutazione', visitor: staff(co) },
    { name: 'rischio-residuo', path: '/rischio/residuo', visitor: staff(auditor) },
    { name: 'rischio-controlli', path: '/rischio/controlli', visitor: staff(co) },
    { name: 'rischio-raf', path: '/rischio/raf', visitor: staff(co) },
    { name: 'rischio-kri', path: '/rischio/kri', visitor: staff(analyst) },
    { name: 'rischio-decisioni', path: '/rischio/decisioni', visitor: staff(co) },
    { name: 'screening', path: '/screening', visitor: staff(analyst) },
    { name: 'screening-match', path: `/screening/${matchId}`, visitor: staff(analyst) },
    { name: 'screening-dashboard', path: '/admin/screening', visitor: staff(co) },
    { name: 'screening-matches', path: '/admin/screening/matches', visitor: staff(co) },
    { name: 'screening-match-admin', path: `/admin/screening/matches/${matchId}`, visitor: staff(co) },
    { name: 'screening-import', path: '/admin/screening/import', visitor: staff(superadmin) },
    { name: 'onboarding-casi', path: '/admin/onboarding/cases', visitor: staff(co) },
    { name: 'onboarding-caso', path: `/admin/onboarding/cases/${review.caseId}`, visitor: staff(co) },
    { name: 'firma-staff', path: `/esign/ceremony/${ceremony.body.id}`, visitor: staff(co) },
    { name: 'ricevuta-firma', path: `/esign/receipt/${signed.id}`, visitor: staff(co) },
    { name: 'anagrafe-importa', path: '/anagrafe/importa', visitor: staff(analyst) },
    { name: 'anagrafe-importa-dettaglio', path: `/anagrafe/importa/${importId}`, visitor: staff(analyst) },
    { name: 'audit-eventi', path: '/audit/eventi', visitor: staff(auditor) },
    { name: 'audit-verifica', path: '/audit/verifica', visitor: staff(auditor) },
    { name: 'notifiche', path: '/notifiche', visitor: staff(co) },
    { name: 'org-aziende', path: '/organizzazione', visitor: staff(superadmin) },
    { name: 'org-azienda-nuova', path: '/organizzazione/nuovo', visitor: staff(superadmin) },
    { name: 'org-azienda', path: `/organizzazione/${tenant}`, visitor: staff(admin) },
    { name: 'org-azienda-modifica', path: `/organizzazione/${tenant}/modifica`, visitor: staff(superadmin) },
    { name: 'org-configurazione', path: '/organizzazione/configurazione', visitor: staff(admin) },
    { name: 'org-logo', path: '/organizzazione/configurazione/logo', visitor: staff(admin) },
    { name: 'org-messaggi', path: '/organizzazione/messaggi', visitor: staff(admin) },
    { name: 'org-utenti', path: '/organizzazione/utenti', visitor: staff(admin) },
    { name: 'org-utente', path: `/organizzazione/utenti/${analyst.cod_utente}`, visitor: staff(admin) },
    { name: 'org-utente-modifica', path: `/organizzazione/utenti/${analyst.cod_utente}/modifica`, visitor: staff(admin) },
    { name: 'org-utente-nuovo', path: '/organizzazione/utenti/nuovo', visitor: staff(admin) },
    { name: 'admin-configurazione', path: '/admin/configurazione', visitor: staff(admin) },
    { name: 'admin-utenti', path: '/admin/utenti', visitor: staff(admin) },
    { name: 'admin-utente-nuovo', path: '/admin/utenti/nuovo', visitor: staff(admin) },
    { name: 'admin-azienda-nuova', path: '/admin/nuovo', visitor: staff(superadmin) },
    { name: 'api-docs', path: '/api/docs', visitor: staff(admin) },
    { name: 'onb-landing', path: `/onboarding/?azienda=${tenant}`, visitor: anonymous },
    { name: 'onb-nuovo-link', path: `/onboarding/nuovo-link?azienda=${tenant}`, visitor: anonymous },
    { name: 'onb-link-non-valido', path: '/api/v1/onboarding/resume?token=non-un-link', visitor: anonymous, status: 400 },
    { name: 'onb-sessione-scaduta', path: '/onboarding/stato', visitor: anonymous, status: 401 },
    ...[0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => ({ name: `onb-step-${n}`, path: `/onboarding/step/${n}`, visitor: applicant(draft.caseId) })),
    { name: 'onb-stato-bozza', path: '/onboarding/stato', visitor: applicant(draft.caseId) },
    { name: 'onb-stato-in-revisione', path: '/onboarding/stato', visitor: applicant(review.caseId) },
    { name: 'onb-completato', path: '/onboarding/completato', visitor: applicant(review.caseId) },
    { name: 'firma-firmatario', path: `${signing.pathname}${signing.search}`, visitor: anonymous },
    // CONFIG: the risk model's configuration pages
    { name: 'rischio-configurazione', path: '/rischio/configurazione', visitor: staff(co) },
    { name: 'rischio-configurazione-in-vigore', path: `/rischio/configurazione?versione=${riskConfig.activeVersion}`, visitor: staff(analyst) },
    { name: 'rischio-regola-nuova', path: '/rischio/configurazione/nuova', visitor: staff(co) },
    { name: 'rischio-regola-bozza', path: `/rischio/configurazione/${riskConfig.draftRule}`, visitor: staff(co) },
    { name: 'rischio-regola-in-vigore', path: `/rischio/configurazione/${riskConfig.activeRule}`, visitor: staff(analyst) },
    { name: 'rischio-fattori', path: '/rischio/fattori', visitor: staff(co) },
    { name: 'rischio-fattore', path: `/rischio/fattori/${riskConfig.factor}`, visitor: staff(co) },
    { name: 'rischio-policy', path: '/rischio/policy?punteggio=42&classe_minima=', visitor: staff(co) },
    { name: 'rischio-soglia', path: `/rischio/policy/${riskConfig.threshold}`, visitor: staff(co) },
    // BATCH
    { name: 'rischio-scenari', path: '/rischio/scenari', visitor: staff(co) },
    // verifications: documents
    { name: 'documenti', path: '/documenti', visitor: staff(analyst) },
    { name: 'documenti-carica', path: '/documenti/carica?cod_anagrafe=ANA-DOC001', visitor: staff(analyst) },
    { name: 'documento-verificato', path: `/documenti/${documents.verified}`, visitor: staff(co) },
    { name: 'documento-non-valido', path: `/documenti/${documents.failed}`, visitor: staff(auditor) },
    // document spine
    { name: 'documenti-spine', path: '/documenti/spine', visitor: staff(analyst) },
    { name: 'documento-spine', path: `/documenti/spine/${spineEntry.cod_spine}`, visitor: staff(co) },
    { name: 'rischio-scenari-esecuzione', path: `/rischio/scenari?esecuzione=${riskBatch.dryRunId}&cambia=false`, visitor: staff(auditor) },
    // monitoring: evaluation paths (KYT, decisions, runs, named lists, release of a draft)
    { name: 'kyt-decisione', path: `/kyt/decision/${monitoringEval.decisioneKyt}`, visitor: staff(analyst) },
    { name: 'kyt-decisione-movimento', path: `/kyt/decision/${monitoringEval.decisioneMovimento}`, visitor: staff(auditor) },
    { name: 'sos', path: '/sos', visitor: staff(co) },
    { name: 'sos-nuova', path: '/sos/nuova', visitor: staff(analyst) },
    { name: 'sos-dettaglio', path: `/sos/${sos.body.id}`, visitor: staff(co) },
    { name: 'sos-coda', path: '/sos/queue', visitor: staff(co) },
    { name: 'sos-istruttoria', path: `/sos/investigation/${sos.body.cod_segnalazione}`, visitor: staff(analyst) },
    { name: 'sos-completezza', path: `/sos/completeness/${sos.body.cod_segnalazione}`, visitor: staff(co) },
    { name: 'sos-trasmissione', path: `/sos/transmission/${sos.body.cod_segnalazione}`, visitor: staff(co) },
    { name: 'reporting', path: '/reporting', visitor: staff(co) },
    { name: 'reporting-genera', path: '/reporting/genera', visitor: staff(analyst) },
    { name: 'reporting-dettaglio', path: `/reporting/${report.body.items[0].id}`, visitor: staff(co) },
    { name: 'kyt-evento', path: `/kyt/event/${monitoringEval.eventoKyt}`, visitor: staff(co) },
    { name: 'monitoraggio-esecuzioni', path: '/monitoraggio/esecuzioni', visitor: staff(co) },
    { name: 'monitoraggio-esecuzione-replay', path: `/monitoraggio/esecuzioni/${monitoringEval.replay}`, visitor: staff(auditor) },
    { name: 'monitoraggio-esecuzione-backtest', path: `/monitoraggio/esecuzioni/${monitoringEval.backtest}`, visitor: staff(co) },
    { name: 'monitoraggio-liste', path: '/monitoraggio/liste', visitor: staff(co) },
    { name: 'monitoraggio-motore', path: '/monitoraggio/motore', visitor: staff(co) },
    { name: 'monitoraggio-modelli', path: '/monitoraggio/modelli', visitor: staff(co) },
    { name: 'monitoraggio-lista-interna', path: `/monitoraggio/liste/${monitoringEval.lista}`, visitor: staff(co) },
    { name: 'monitoraggio-lista-riferimento', path: '/monitoraggio/liste/paesi_alto_rischio', visitor: staff(analyst) },
    { name: 'monitoraggio-rilascio', path: `/monitoraggio/regole/${monitoringEval.regola}/rilascio`, visitor: staff(co2) },
  ];
  return { tenant, users: { co, co2, analyst, auditor, admin, superadmin, newcomer }, pages };
}

/**
 * console (issue 13): a person's KYC with an identity document on file, and a company's KYB in progress
 * with its declared owners, its profile and one check passed.
 */
async function seedVerificationPages(env: TestEnv, tenant: string, analystApi: TestClient): Promise<{ kyc: string; kyb: string }> {
  await env.ownerDb('anagrafe').insert([
    { cod_azienda: tenant, cod_anagrafe: 'ANA-VER001', tipo_soggetto: 'persona_fisica', nome: 'Chiara', cognome: 'Fontana', denominazione: 'Chiara Fontana', nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test' },
    { cod_azienda: tenant, cod_anagrafe: 'ANA-VER002', tipo_soggetto: 'societa', denominazione: 'Tessitura Comasca S.p.A.', nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test' },
  ]);
  const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
  const sha = await new DocumentStore(env.deps.config.documentDir).put(tenant, pdf);
  await env.ownerDb('documenti').insert({
    id: randomUUID(), cod_azienda: tenant, cod_documento: 'DOC-920001', cod_anagrafe: 'ANA-VER001', tipo: 'carta_identita', numero: 'CA12345AB', data_scadenza: '2032-04-30',
    stato: 'valido', sha256: sha, nome_file: 'carta-identita.pdf', mime: 'application/pdf', dimensione: pdf.length, created_by: 'test',
  });
  const kyc = await analystApi.post('/api/v1/kyc/verifiche', {
    cod_anagrafe: 'ANA-VER001', documenti: ['DOC-920001'], dati_dichiarati: { nome: 'Chiara', cognome: 'Fontana', data_nascita: '1990-07-21', nazionalita: 'IT', pep: false },
  });
  assert.equal(kyc.status, 201, kyc.text);
  const kyb = await analystApi.post('/api/v1/kyb/verifiche', {
    cod_anagrafe: 'ANA-VER002',
    dati_dichiarati: { denominazione: 'Tessitura Comasca S.p.A.', titolari: [{ nome: 'Anna', cognome: 'Ruffini', percentuale: 40 }, { nome: 'Marco', cognome: 'Ruffini', percentuale: 35 }] },
    profilo: {
      forma_giuridica: 'spa', numero_registro: 'CO-0123456', registro: 'Registro delle imprese di Como-Lecco', codice_ateco: '13.20.00', paese_costituzione: 'IT',
      data_costituzione: '1972-09-01', sede_legale: { indirizzo: 'Via Borgo Vico 33', cap: '22100', comune: 'Como', provincia: 'CO', paese: 'IT' }, capitale_sociale: 1200000,
    },
  });
  assert.equal(kyb.status, 201, kyb.text);
  const cod = kyb.body.cod_verifica as string;
  assert.equal((await analystApi.post(`/api/v1/admin/kyb/${cod}/transizione`, { azione: 'start' })).status, 200);
  const checks = kyb.body.checks as { cod_check: string; tipo: string }[];
  const registro = checks.find((c) => c.tipo === 'registro')!;
  const passed = await analystApi.put(`/api/v1/kyb/verifiche/${cod}/checks/${registro.cod_check}`, { stato: 'passed', esito_nota: 'Visura camerale del 3 novembre consultata' });
  assert.equal(passed.status, 200, passed.text);
  return { kyc: kyc.body.cod_verifica as string, kyb: cod };
}

/** CONFIG: a draft of the risk rules opened from the configuration page; the ids of what the pages show. */
/** A classified STR (the UAE golden sample with a negative amount) whose validation failed: its errors sit next to their fields. */
async function seedFilingPages(analystApi: TestClient): Promise<string> {
  const goaml = join(process.cwd(), '..', 'shared', 'data', 'regulatory', 'goaml');
  const j = await loadJurisdiction(goaml, 'ae-goaml-5.0.2');
  const content = parseReportXml(j.model, readFileSync(join(goaml, 'vyttah-uae-5.0.2', 'golden', 'STR.xml'), 'utf8'));
  (content.transaction as GoamlNode[])[0]!.amount_local = '-120000.00';
  const made = await analystApi.post('/api/filing/create', { titolo: 'Bonifico estero dopo versamenti in contanti', tipo: 'str', content });
  assert.equal(made.status, 201, made.text);
  assert.equal((await analystApi.post(`/api/filing/${made.body.id}/classify`, { tipo: 'str', jurisdiction: 'ae-goaml-5.0.2', report_code: 'STR' })).status, 200);
  assert.equal((await analystApi.post(`/api/filing/${made.body.id}/validate`, {})).status, 422);
  return made.body.id as string;
}

async function seedRiskConfigPages(env: TestEnv, tenant: string, co: TestClient) {
  const draft = await co.submitForm('/rischio/configurazione/bozza', { descrizione: 'Calibrazione annuale' }, '/rischio/configurazione');
  assert.equal(draft.status, 302, draft.text.slice(0, 1000));
  const versions = await env.ownerDb('rischio_versioni').where({ cod_azienda: tenant }).select('id', 'stato');
  const id = (stato: string) => versions.find((v) => v.stato === stato)!.id as string;
  const ruleIn = async (versione: string) => (await env.ownerDb('rischio_regole').where({ versione_id: versione, codice: 'canale_remoto' }).first('id', 'fattore_id'));
  const active = await ruleIn(id('active'));
  const draftRule = await ruleIn(id('draft'));
  const threshold = await env.ownerDb('rischio_soglie').where({ cod_azienda: tenant, classe: 'medio_alto' }).first('id');
  return { activeVersion: id('active'), activeRule: active.id as string, draftRule: draftRule.id as string, factor: active.fattore_id as string, threshold: threshold.id as string };
}

/** risk SELF: a draft self-assessment with one line assessed, a tested control, a KRI month and a decision, all through the forms. */
async function seedSelfAssessment(co: TestClient): Promise<void> {
  const year = new Date().getFullYear();
  assert.equal((await co.submitForm('/rischio/autovalutazione/nuova', { anno: String(year) }, '/rischio/autovalutazione')).status, 302);
  const page = await co.get(`/rischio/autovalutazione?anno=${year}`, { accept: 'text/html' });
  const line = /action="\/rischio\/autovalutazione\/\d+\/linee\/([0-9a-f-]{36})"/.exec(page.text)![1]!;
  const suggested = /data-suggerito="(\d)"/.exec(page.text)![1]!;
  const saved = await co.submitForm(`/rischio/autovalutazione/${year}/linee/${line}`, { inerente: suggested, vulnerabilita: '2', peso: '60', motivazione_inerente: '', motivazione_vulnerabilita: '' }, `/rischio/autovalutazione?anno=${year}`);
  assert.equal(saved.status, 302, saved.text.slice(0, 500));
  const control = await co.submitForm('/rischio/controlli/nuovo', {
    nome: 'Revisione mensile degli scostamenti dal profilo', area: 'Monitoraggio', linea_id: '', responsabile: 'Funzione antiriciclaggio', frequenza: 'mensile', disegno: 'adeguato', efficacia: 'parzialmente_adeguato', descrizione: '',
  }, '/rischio/controlli');
  assert.equal(control.status, 302);
  const id = /action="\/rischio\/controlli\/([0-9a-f-]{36})\/test"/.exec((await co.get('/rischio/controlli', { accept: 'text/html' })).text)![1]!;
  assert.equal((await co.submitForm(`/rischio/controlli/${id}/test`, { data: `${year}-01-15`, esito: 'parzialmente', note: 'Due scostamenti non lavorati entro il mese' }, '/rischio/controlli')).status, 302);
  assert.equal((await co.submitForm('/rischio/kri/rileva', {}, '/rischio/kri')).status, 302);
  assert.equal((await co.submitForm('/rischio/decisioni/nuova', {
    data: `${year}-01-20`, oggetto: 'Soglie del contante', decisione: 'Abbassata la soglia ambra del contante al 15%', decisa_da: 'Consiglio di amministrazione', motivazione: 'Crescita dei versamenti', autovalutazione_id: '', metrica_id: '',
  }, '/rischio/decisioni')).status, 302);
}

/** A company registered and then edited through the anagrafe forms, as a person would: its code. */
async function seedCustomer(co: TestClient): Promise<string> {
  const fields = {
    tipo_soggetto: 'societa', denominazione: 'Ceramiche Sassolesi S.r.l.', codice_fiscale: '07778889993', partita_iva: '07778889993',
    nazionalita: 'IT', paese_residenza: 'IT', 'indirizzo.via': 'Via Radici in Piano 200', 'indirizzo.cap': '41049', 'indirizzo.citta': 'Sassuolo',
    'indirizzo.provincia': 'MO', 'indirizzo.paese': 'IT', attivita: 'Produzione di piastrelle', pep: 'false', classe_rischio: 'medio',
  };
  const created = await co.submitForm('/anagrafe/nuovo', fields);
  assert.equal(created.status, 302, created.text.slice(0, 1000));
  const cod = created.headers.get('location')!.split('/').pop()!;
  const edited = await co.submitForm(`/anagrafe/${cod}/modifica`, { ...fields, stato: 'attivo', telefono: '+39 0536 000000', classe_rischio: 'medio_alto', versione: '1' });
  assert.equal(edited.status, 302, edited.text.slice(0, 1000));
  return cod;
}

/** A complete set of KYC answers for a person, as the API takes them. */
const KYC_ANSWERS = {
  scopo_rapporto: 'investimento', natura_rapporto: 'continuativo', origine_fondi: 'reddito_lavoro', origine_fondi_dettaglio: 'Stipendio da impiegata',
  origine_patrimonio: 'lavoro', volume_annuo: '10k_50k', contanti: false, paesi_operativita: ['IT'], pep: false, professione: 'Impiegata',
};

/**
 * CDD tasks for the /cdd pages: one just opened, one being worked (its questionnaire saved as a
 * draft), one waiting for review (questionnaire completed, one piece of evidence), and a periodic
 * review past its date for the refresh queue.
 */
export async function seedCddPages(env: TestEnv, tenant: string, analystApi: TestClient) {
  const people = [
    ['ANA-700001', 'Giovanna', 'Esposito'], ['ANA-700002', 'Marco', 'Ferri'], ['ANA-700003', 'Elena', 'Gallo'], ['ANA-700004', 'Sergio', 'Conti'],
  ] as const;
  await env.ownerDb('anagrafe').insert(people.map(([cod, nome, cognome]) => ({
    cod_azienda: tenant, cod_anagrafe: cod, tipo_soggetto: 'persona_fisica', nome, cognome, denominazione: `${nome} ${cognome}`, nazionalita: 'IT', paese_residenza: 'IT',
    classe_rischio: 'medio', pep: false, created_by: 'test',
  })));
  const initiate = async (cod: string) => {
    const r = await analystApi.post(`/api/cdd/initiate/${cod}`, { motivo: 'manuale' });
    assert.equal(r.status, 201, r.text);
    return { id: r.body.id as string, code: r.body.cod_pratica as string };
  };
  const act = async (id: string, azione: string) => {
    const r = await analystApi.put(`/api/cdd/tasks/${id}/transition`, { azione });
    assert.equal(r.status, 200, r.text);
  };
  const open = await initiate('ANA-700001');
  const working = await initiate('ANA-700002');
  await act(working.id, 'start');
  const review = await initiate('ANA-700003');
  await act(review.id, 'start');
  const kyc = await analystApi.post('/api/kyc/anagrafe/ANA-700003', { risposte: KYC_ANSWERS });
  assert.equal(kyc.status, 201, kyc.text);
  await env.ownerDb('cdd_evidenze').insert({
    id: randomUUID(), cod_azienda: tenant, cdd_pratica_id: review.id, tipo: 'verifica_fonte', descrizione: 'Visura del registro delle imprese consultata',
    riferimento: 'Registro imprese, visura del 2 novembre', created_by: 'test',
  });
  await act(review.id, 'review');
  const reviewId = randomUUID();
  await env.ownerDb('cdd_reviews').insert({
    id: reviewId, cod_azienda: tenant, cod_anagrafe: 'ANA-700004', motivo: 'onboarding', classe_rischio: 'medio',
    due_at: new Date(Date.now() - 3 * 86_400_000), stato: 'scaduta', workflow_id: `cdd-review:${tenant}:${reviewId}`,
  });
  return { open, working, review };
}

/** The catalogue entry whose path template the registered route is (":id" matches one segment). */
export function coveredBy(routePath: string, pages: readonly CataloguePage[]): CataloguePage | undefined {
  const re = new RegExp(`^${routePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/?]+')}(\\?.*)?$`);
  return pages.find((p) => re.test(p.path));
}

/** A CSRF token of the page's forms, as a browser would send it back. */
const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1];

/** An HTTP client holding the visitor's session (no JavaScript, as a page test needs). */
export async function clientFor(env: TestEnv, visitor: Visitor, signedIn: Map<string, TestClient>): Promise<TestClient> {
  if (visitor.kind === 'anonymous') return env.client();
  if (visitor.kind === 'applicant') {
    const c = env.client();
    const r = await c.get(`/api/v1/onboarding/resume?token=${encodeURIComponent(await linkToken(env, await tenantOfCase(env, visitor.caseId), visitor.caseId))}`);
    assert.equal(r.status, 200, r.text);
    return c;
  }
  const key = `${visitor.kind}:${visitor.user.username}`;
  const known = signedIn.get(key);
  if (known) return known;
  let c: TestClient;
  if (visitor.kind === 'staff') c = await env.login(visitor.user);
  else {
    c = env.client();
    const form = await c.request('GET', '/login', { headers: { accept: 'text/html' } });
    const r = await c.request('POST', '/login', { headers: { accept: 'text/html' }, form: { _csrf: csrfOf(form.text) ?? '', username: visitor.user.username, password: visitor.user.password } });
    assert.equal(r.status, 302, `password step of ${visitor.user.username}: ${r.status}`);
  }
  signedIn.set(key, c);
  return c;
}

async function tenantOfCase(env: TestEnv, caseId: string): Promise<string> {
  const row = await env.ownerDb('onboarding_cases').where({ id: caseId }).first('cod_azienda');
  assert.ok(row, `onboarding case ${caseId}`);
  return row.cod_azienda as string;
}

/** Opens the page in the browser as its visitor would reach it (one signed-in context per person). */
export async function openInBrowser(env: TestEnv, page: Page, entry: CataloguePage): Promise<number | undefined> {
  const v = entry.visitor;
  if (v.kind === 'staff') {
    if (!page.url().startsWith(env.baseUrl) || new URL(page.url()).pathname.startsWith('/login')) await signInWithTotp(page, env.baseUrl, v.user);
  } else if (v.kind === 'password-only') {
    await page.goto(`${env.baseUrl}/login`);
    await page.getByLabel('Nome utente').fill(v.user.username);
    await page.getByLabel('Password').fill(v.user.password);
    await page.locator('form button[type=submit]').click();
    await page.waitForURL(/\/totp\//);
  } else if (v.kind === 'applicant') {
    const token = await linkToken(env, await tenantOfCase(env, v.caseId), v.caseId);
    await page.goto(`${env.baseUrl}/api/v1/onboarding/resume?token=${encodeURIComponent(token)}`);
  }
  const res = await page.goto(`${env.baseUrl}${entry.path}`);
  return res?.status();
}
