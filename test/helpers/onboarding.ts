import assert from 'node:assert/strict';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import PDFDocument from 'pdfkit';
import { HttpError } from '../../src/http/errors';
import { CDD_SCHEMA_VERSION } from '../../src/domains/onboarding/onboarding.cdd-schema';
import { startOnboarding } from '../../src/domains/onboarding/onboarding.commands';
import {
  addWallet, completeTravelRule, onboardingTemporal, reloadCase, saveSection, signTravelRule, submitCase, uploadDocument, type CaseRow,
} from '../../src/domains/onboarding/onboarding.service';
import { onboardingEsignToken } from '../../src/domains/onboarding/onboarding.tokens';
import { ethAddressOf, walletProofMessage } from '../../src/domains/onboarding/wallet-proof';
import type { OnboardingStatus } from '../../workflows/onboarding/onboarding.machine';
import type { TestEnv } from './env';
import { ethSign } from './wallet-sign';

/**
 * Builds onboarding cases the way an applicant would, through the applicant's service
 * layer (the same functions the wizard and the customer API call) and the public e-sign
 * API: a company with two beneficial owners, real PDF and PNG documents, the CDD
 * questionnaire, countries, optionally wallets with the travel-rule declaration, then
 * submission and the signed declarations. Shared by the API and browser tests.
 */

/** A 1x1 PNG: real image bytes, so the type sniffed from them is image/png. */
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A one-page PDF with the given text. */
export function tinyPdf(text: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A6', margin: 20 });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.fontSize(10).text(text);
    doc.end();
  });
}


/** A self-hosted Ethereum wallet of a fresh key, proved by signing the case's own message (as the applicant's wallet would). */
export function provenEthWallet(caseId: string, codAzienda: string, volume = 5000) {
  const key = secp256k1.utils.randomSecretKey();
  const indirizzo = ethAddressOf(secp256k1.getPublicKey(key, false));
  const messaggio = walletProofMessage(caseId, codAzienda, 'ETH', indirizzo);
  return { rete: 'ETH', indirizzo, tipo: 'self_hosted', volume_annuo_eur: volume, prova: { metodo: 'firma_messaggio', messaggio, firma: ethSign(key, messaggio) } };
}

export async function waitFor<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/**
 * Signs a ceremony an onboarding workflow started, as the applicant: the token is derived
 * from the session secret (as the wizard's link carries it); the one-time code is read from
 * the message that reached the applicant's mailbox.
 */
export async function signOnboardingCeremony(env: TestEnv, ceremonyId: string): Promise<void> {
  const token = onboardingEsignToken(env.deps.config.sessionSecret, ceremonyId);
  const anon = env.client();
  const path = `/api/v1/esign/ceremony/${ceremonyId}`;
  // The child workflow writes the ceremony row shortly after the parent started it.
  await waitFor(`ceremony ${ceremonyId}`, async () => (await anon.get(`${path}?token=${encodeURIComponent(token)}`)).status === 200);
  let r = await anon.post(`${path}/terms`, { token });
  assert.equal(r.status, 200, r.text);
  const after = await env.mailbox.cursor();
  r = await anon.post(`${path}/present`, { token });
  assert.equal(r.status, 200, r.text);
  const otp = await env.mailbox.otp(r.body.signer.email, after);
  r = await anon.post(`${path}/sign`, { token, otp });
  assert.equal(r.status, 200, r.text);
}

export interface CaseSpec {
  email?: string;
  denominazione?: string;
  /** The second beneficial owner is a politically exposed person (high risk: four eyes). */
  pepOwner?: boolean;
  /** Fields that replace the second beneficial owner's (a listed person, for screening tests). */
  secondOwner?: Record<string, unknown>;
  /** Wallet inputs as the applicant gives them (walletInputSchema); any wallet brings the travel-rule declaration. */
  wallets?: Record<string, unknown>[];
}

export interface BuiltCase { caseId: string; codAzienda: string; row: CaseRow; ownerIds: string[] }

const settings = { draftIdleDays: 30, infoReminderDays: 7, infoExpiryDays: 30 };
let seq = 0;

/** A complete company application, still a draft. */
export async function completeDraft(env: TestEnv, codAzienda: string, spec: CaseSpec = {}): Promise<BuiltCase> {
  const deps = env.deps;
  const n = ++seq;
  const email = spec.email ?? `amministrazione${n}.${Date.now().toString(36)}@example.test`;
  const { caseId } = await startOnboarding(await onboardingTemporal(deps), {
    codAzienda, data: { email, canale: 'online', subjectType: 'societa' }, settings,
  });
  let row = await reloadCase(deps, { id: caseId, cod_azienda: codAzienda });
  row = await saveSection(deps, row, 'subject_type', { subject_type: 'societa' });
  const sede = { via: 'Via Dante 12', cap: '20121', citta: 'Milano', provincia: 'MI', paese: 'IT' };
  row = await saveSection(deps, row, 'anagrafe', {
    denominazione: spec.denominazione ?? `Componenti Lombardi ${n} S.r.l.`, forma_giuridica: 'srl', codice_fiscale: '12345678901',
    partita_iva: '12345678901', data_costituzione: '2015-03-01', paese_costituzione: 'IT', sede, attivita: 'Commercio all\'ingrosso di componenti elettronici',
    email_pec: 'componenti@pec.example.test',
    legale_rappresentante: {
      nome: 'Giulia', cognome: 'Bianchi', codice_fiscale: 'BNCGLI80A41F205X', data_nascita: '1980-01-01', nazionalita: 'IT', pep: false,
      documento: { tipo: 'carta_identita', numero: 'CA12345AA', rilasciato_da: 'Comune di Milano', scadenza: '2034-01-01' },
    },
  });
  row = await saveSection(deps, row, 'ubo', {
    titolari: [
      { nome: 'Marco', cognome: 'Verdi', data_nascita: '1975-05-10', luogo_nascita: 'Bergamo', nazionalita: 'IT', paese_residenza: 'IT', percentuale: 60, tipo_controllo: 'proprieta_diretta', pep: false },
      { nome: 'Anna', cognome: 'Neri', data_nascita: '1982-09-20', luogo_nascita: 'Brescia', nazionalita: 'IT', paese_residenza: 'IT', percentuale: 40, tipo_controllo: 'proprieta_diretta',
        pep: !!spec.pepOwner, ...(spec.pepOwner ? { pep_dettaglio: 'Assessore regionale al bilancio' } : {}), ...spec.secondOwner },
    ],
  });
  const owners = (Array.isArray(row.ubo) ? row.ubo : (row.ubo as { titolari?: { id?: string }[] }).titolari ?? []) as { id?: string }[];
  const ownerIds = owners.map((o) => o.id!).filter(Boolean);
  assert.equal(ownerIds.length, 2, 'both owners got an id');
  const upload = async (tipo: string, riferimento: string, filename: string, bytes: Buffer, mime: string) => {
    const r = await uploadDocument(deps, row, { bytes, filename, declaredMime: mime, tipo, riferimento });
    assert.ok(r.ok, JSON.stringify(r));
  };
  await upload('documento_identita', 'soggetto', 'carta-identita-bianchi.png', TINY_PNG, 'image/png');
  await upload('visura_camerale', 'soggetto', 'visura camerale.pdf', await tinyPdf('Visura camerale ordinaria'), 'application/pdf');
  await upload('atto_costitutivo', 'soggetto', 'atto-costitutivo.pdf', await tinyPdf('Atto costitutivo e statuto'), 'application/pdf');
  await upload('documento_identita', ownerIds[0]!, 'passaporto-verdi.pdf', await tinyPdf('Passaporto Marco Verdi'), 'application/pdf');
  await upload('documento_identita', ownerIds[1]!, 'carta-neri.png', TINY_PNG, 'image/png');
  row = await saveSection(deps, row, 'cdd_answers', {
    versione: CDD_SCHEMA_VERSION,
    risposte: {
      scopo_rapporto: 'investimento', natura_rapporto: 'continuativo', origine_fondi: 'reddito_impresa',
      origine_fondi_dettaglio: 'Utili della vendita di componenti elettronici', volume_annuo: 'fino_10k', operazioni_mensili: 4,
      contanti: false, paesi_alto_rischio: false, attivita_cripto: 'investimento_personale', settore: 'commercio',
    },
  });
  row = await saveSection(deps, row, 'countries', { paesi: [{ paese: 'IT', ruolo: 'sede_operativa' }, { paese: 'DE', ruolo: 'clienti' }] });
  if (spec.wallets?.length) {
    for (const w of spec.wallets) await addWallet(deps, row, w);
    const signing = await signTravelRule(deps, row, { titolare_wallet: true, fondi_leciti: true, aggiornamento: true, luogo: 'Milano' });
    await signOnboardingCeremony(env, signing.ceremony_id);
    // The signature reaches the case's workflow as a signal: completing waits for it.
    await waitFor('travel-rule signature', async () => {
      try { await completeTravelRule(deps, row); return true; } catch (e) { if (e instanceof HttpError && e.code === 'SIGNATURE_PENDING') return false; throw e; }
    });
  }
  return { caseId, codAzienda, row: await reloadCase(deps, row), ownerIds };
}

/**
 * Waits until the read model shows the state. The workflow moves a moment after its row is
 * written; an update sent in between is checked against where the state is going, so a
 * caller who reads the row is never refused as stale.
 */
export async function waitForStatus(env: TestEnv, c: Pick<BuiltCase, 'caseId' | 'codAzienda'>, status: OnboardingStatus): Promise<CaseRow> {
  return waitFor(`case ${c.caseId} in ${status}`, async () => {
    const r = await reloadCase(env.deps, { id: c.caseId, cod_azienda: c.codAzienda });
    return r.stato === status ? r : undefined;
  });
}

/** Submits and signs the declarations: the case reaches in_review (screening and risk done). */
export async function submitAndSign(env: TestEnv, c: BuiltCase): Promise<BuiltCase> {
  const { firma } = await submitCase(env.deps, c.row);
  assert.ok(firma, 'submission starts the declarations ceremony');
  await signOnboardingCeremony(env, firma.ceremony_id);
  return { ...c, row: await waitForStatus(env, c, 'in_review') };
}

/** A complete company case waiting for a reviewer. */
export async function caseInReview(env: TestEnv, codAzienda: string, spec: CaseSpec = {}): Promise<BuiltCase> {
  return submitAndSign(env, await completeDraft(env, codAzienda, spec));
}
