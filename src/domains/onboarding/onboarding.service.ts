import { randomUUID } from 'node:crypto';
import { basename, extname } from 'node:path';
import type Koa from 'koa';
import type { Deps } from '../../deps';
import { withTenant } from '../../db/tenant';
import type { AppState } from '../../http/context';
import { unstorableFields } from '../../http/storable-text';
import { conflict, HttpError, invalidTransition, notFound, tooManyRequests, ValidationError, type FieldError } from '../../http/errors';
import { allowedActions } from '../../../workflows/lib/machine';
import {
  ONBOARDING_FAILURES, type CeremonyRef, type DocumentMeta, type DraftSection, type OnboardingWorkflowState, type SubjectType, type WalletInput,
} from '../../../workflows/onboarding/onboarding.contract';
import { EDITABLE_STATES, onboardingMachine, type OnboardingStatus } from '../../../workflows/onboarding/onboarding.machine';
import { getSetting } from '../admin';
import { documentLimitMessage, documentLimitRefusal, documentLimits, documentUsage } from './document-limits';
import { DocumentStore, sniffDocument } from './document-store';
import {
  customerActor, deleteErasedHistory, editOnboarding, startOnboarding, transitionOnboarding, type OnboardingTemporal,
} from './onboarding.commands';
import {
  applicableSteps, documentUploadSchema, requiredDocuments, TRAVEL_RULE_VERSION, travelRuleDeclarationSchema, walletInputSchema,
} from './onboarding.schemas';
import { createCustomerSession, endCustomerSession, requireCustomerCase } from './onboarding.session';
import { onboardingEsignToken } from './onboarding.tokens';
import { uboOwners } from './onboarding.validation';
import { verifyWalletProof, walletProofMessage } from './wallet-proof';
import { countRequest } from './request-limit';
import { isUuid } from '../../kit/ids';

export { issueMagicLink, resumeWithToken, type ResumeResult } from './onboarding.links';

/**
 * The applicant's side of an onboarding case, shared by the JSON API and the wizard
 * pages: every write goes through the case's workflow (editOnboarding /
 * transitionOnboarding); reads come from the read model (onboarding_cases and its
 * documents and wallets).
 */

type Ctx = Koa.ParameterizedContext<AppState>;

export interface CaseRow {
  id: string; cod_azienda: string; stato: OnboardingStatus; tipo_soggetto: SubjectType | null; email: string | null; canale: string;
  anagrafe: Record<string, unknown>; ubo: UboEntry[]; cdd_answers: Record<string, unknown>; cdd_schema_version: string | null;
  countries: unknown[]; travel_rule: Record<string, unknown>; validation: unknown; screening: unknown; risk: unknown;
  risk_score: number | null; risk_classe: string | null; pep: boolean | null; declarations_ceremony_id: string | null; declarations_stato: CeremonyRef['status'] | null;
  travel_rule_ceremony_id: string | null;
  submitted_at: Date | null; submissions: number; approved_by: string | null; info_request_message: string | null; info_requested_at: Date | null;
  cod_anagrafe: string | null; erased_at: Date | null; expired_at: Date | null; last_edit_at: Date; workflow_id: string; created_at: Date; updated_at: Date;
}
export interface UboEntry { id?: string; nome?: string; cognome?: string; [k: string]: unknown }
export interface DocumentRow { id: string; tipo: string; riferimento: string; nome_file: string; mime: string; dimensione: number; sha256: string; created_at: Date }
export interface WalletRow {
  id: string; rete: string; indirizzo: string; tipo: string; vasp_nome: string | null; volume_annuo_eur: string | number | null;
  prova: { metodo?: string; messaggio?: string; firma?: string; verificata?: boolean | null } | null; stato: string; created_at: Date;
}

export const onboardingTemporal = async (deps: Deps): Promise<OnboardingTemporal> => ({ client: await deps.temporal.get(), taskQueue: deps.temporal.taskQueue });

/** Where the applicant signs a ceremony the case started: the token is derived, never stored. */
export const signingPath = (deps: Deps, ceremonyId: string) =>
  `/esign/ceremony/${ceremonyId}?token=${encodeURIComponent(onboardingEsignToken(deps.config.sessionSecret, ceremonyId))}`;

async function caseRow(deps: Deps, codAzienda: string, id: string): Promise<CaseRow | undefined> {
  if (!isUuid(id)) return undefined;
  return withTenant(deps.db, { codAzienda, actor: 'cliente' }, (trx) => trx('onboarding_cases').where({ id }).first()) as Promise<CaseRow | undefined>;
}

/** The case of the applicant's session; any other id (another case, another tenant) is a 404. */
export async function loadCustomerCase(deps: Deps, ctx: Ctx, id: string): Promise<CaseRow> {
  const c = requireCustomerCase(ctx, id);
  const row = await caseRow(deps, c.codAzienda, id);
  if (!row) throw notFound('Pratica');
  return row;
}

/** The row again after a write (the activity has updated it by the time the update returns). */
export async function reloadCase(deps: Deps, row: Pick<CaseRow, 'id' | 'cod_azienda'>): Promise<CaseRow> {
  const fresh = await caseRow(deps, row.cod_azienda, row.id);
  if (!fresh) throw notFound('Pratica');
  return fresh;
}

export async function caseDocuments(deps: Deps, row: Pick<CaseRow, 'id' | 'cod_azienda'>): Promise<DocumentRow[]> {
  return withTenant(deps.db, { codAzienda: row.cod_azienda, actor: 'cliente' }, (trx) => trx('onboarding_documents').where({ case_id: row.id })
    .orderBy('created_at').select('id', 'tipo', 'riferimento', 'nome_file', 'mime', 'dimensione', 'sha256', 'created_at'));
}

export async function caseWallets(deps: Deps, row: Pick<CaseRow, 'id' | 'cod_azienda'>): Promise<WalletRow[]> {
  return withTenant(deps.db, { codAzienda: row.cod_azienda, actor: 'cliente' }, (trx) => trx('onboarding_wallets').where({ case_id: row.id })
    .orderBy('created_at').select('id', 'rete', 'indirizzo', 'tipo', 'vasp_nome', 'volume_annuo_eur', 'prova', 'stato', 'created_at'));
}

/** Everything a page or the API shows of a case, from PostgreSQL: row, documents and wallets (never a workflow query). */
export async function loadCaseBundle(deps: Deps, row: CaseRow) {
  const [docs, wallets] = await Promise.all([caseDocuments(deps, row), caseWallets(deps, row)]);
  return { row, docs, wallets };
}

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
const uboList = (row: CaseRow): UboEntry[] => uboOwners(row.ubo) as UboEntry[];

/** The required documents with the ones already uploaded for each. */
export function requiredDocsView(row: CaseRow, docs: DocumentRow[]) {
  return requiredDocuments(row.tipo_soggetto, uboList(row)).map((r) => {
    const have = docs.filter((d) => d.tipo === r.tipo && d.riferimento === r.riferimento);
    return { ...r, caricato: have.length > 0, documenti: have.map((d) => d.id) };
  });
}

/**
 * The applicant's view of the case. Reviewers' working data (screening, risk score) is
 * not shown to the applicant; the signing links are, for ceremonies still waiting.
 * `secret` (the session secret) adds the signing paths; without it only the ids are shown.
 */
export function caseView(row: CaseRow, docs: DocumentRow[], wallets: WalletRow[], secret?: string) {
  const sign = (id: string | null | undefined) => (id && secret ? `/esign/ceremony/${id}?token=${encodeURIComponent(onboardingEsignToken(secret, id))}` : null);
  const tr = (row.travel_rule ?? {}) as Record<string, unknown>;
  const trStatus = (tr.stato as string | undefined) ?? 'none';
  const trCeremony = row.travel_rule_ceremony_id ?? (tr.ceremony_id as string | undefined) ?? null;
  const decl = row.declarations_ceremony_id
    ? { ceremonyId: row.declarations_ceremony_id, status: row.declarations_stato ?? (row.stato === 'submitted' ? 'active' : 'signed') }
    : null;
  return {
    id: row.id,
    stato: row.stato,
    modificabile: EDITABLE_STATES.includes(row.stato),
    allowed_actions: allowedActions(onboardingMachine, row.stato, customerActor(row.id)),
    tipo_soggetto: row.tipo_soggetto,
    email: row.email,
    anagrafe: row.anagrafe ?? {},
    ubo: { titolari: uboList(row) },
    cdd_answers: { versione: row.cdd_schema_version, risposte: row.cdd_answers ?? {} },
    countries: { paesi: Array.isArray(row.countries) ? row.countries : [] },
    travel_rule: {
      stato: trStatus, dichiarazione: tr.dichiarazione ?? null, versione: tr.versione ?? null, signed_at: tr.signed_at ?? null,
      ceremony_id: trCeremony, signing_path: trStatus === 'signing' ? sign(trCeremony) : null,
    },
    dichiarazioni: decl ? { ceremony_id: decl.ceremonyId, stato: decl.status, signing_path: decl.status === 'active' && row.stato === 'submitted' ? sign(decl.ceremonyId) : null } : null,
    documents: docs.map((d) => ({ id: d.id, tipo: d.tipo, riferimento: d.riferimento, nome_file: d.nome_file, mime: d.mime, dimensione: d.dimensione, sha256: d.sha256, created_at: iso(d.created_at) })),
    wallets: wallets.map(walletView),
    required_documents: requiredDocsView(row, docs),
    steps: applicableSteps(row.tipo_soggetto),
    info_request_message: row.stato === 'info_requested' ? row.info_request_message : null,
    submitted_at: iso(row.submitted_at),
    submissions: row.submissions,
    last_edit_at: iso(row.last_edit_at),
    created_at: iso(row.created_at),
  };
}
export type CaseView = ReturnType<typeof caseView>;

export function walletView(w: WalletRow) {
  const p = w.prova;
  return {
    id: w.id, rete: w.rete, indirizzo: w.indirizzo, tipo: w.tipo, vasp_nome: w.vasp_nome,
    volume_annuo_eur: w.volume_annuo_eur === null || w.volume_annuo_eur === undefined ? null : Number(w.volume_annuo_eur),
    prova: p ? { metodo: p.metodo ?? null, messaggio: p.messaggio ?? null, verificata: p.verificata ?? null } : null,
    stato: w.stato, created_at: iso(w.created_at),
  };
}

/** The case as the API answers it (row, documents, wallets). */
export async function caseResponse(deps: Deps, row: CaseRow) {
  const b = await loadCaseBundle(deps, row);
  return caseView(b.row, b.docs, b.wallets, deps.config.sessionSecret);
}

/** Saves one section of the draft as the applicant typed it; completeness is checked at submit. */
export async function saveSection(deps: Deps, row: CaseRow, section: DraftSection, data: unknown): Promise<CaseRow> {
  // Owners get their stable ids (documents refer to them) from the activity.
  await editOnboarding(await onboardingTemporal(deps), row, { kind: 'section', section, data });
  return reloadCase(deps, row);
}

export interface UploadInput { bytes: Buffer; filename: string; declaredMime?: string; tipo?: unknown; riferimento?: unknown }
export type UploadResult = { ok: true; document: DocumentMeta } | { ok: false; status: 413 | 415 | 422; code?: string; errors: FieldError[]; extra?: Record<string, unknown> };

const LIMIT_CODES = new Set<string>([ONBOARDING_FAILURES.tooManyDocuments, ONBOARDING_FAILURES.documentsTooLarge]);
const limitResult = (status: 413 | 422, code: string, details: Record<string, unknown>): UploadResult => {
  const message = documentLimitMessage(code, details);
  return { ok: false, status, code, errors: [{ path: 'file', message }], extra: details };
};

const EXT_MIME: Record<string, string> = { '.pdf': 'application/pdf', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png' };
/** A file name for display only (never a path): no directories, no control characters, bounded. */
const displayName = (name: string) => basename(name.replace(/\\/g, '/')).replace(/[\p{Cc}\p{Cf}]/gu, '').trim().slice(0, 200) || 'documento';

/**
 * Stores an uploaded document: type and reference checked, type sniffed from the bytes
 * (a file labelled or named as another type is refused), bytes written to the
 * content-addressed store, then the workflow records it.
 */
export async function uploadDocument(deps: Deps, row: CaseRow, input: UploadInput): Promise<UploadResult> {
  // Checked before the bytes are stored: a case that can no longer change never gets a file.
  if (!EDITABLE_STATES.includes(row.stato)) throw invalidTransition(row.stato, 'edit', allowedActions(onboardingMachine, row.stato, customerActor(row.id)));
  // Multipart fields and the file's name are read here, after the request-wide check: the same rule applies.
  const errors: FieldError[] = unstorableFields({ file: input.filename, tipo: input.tipo, riferimento: input.riferimento });
  if (errors.length) return { ok: false, status: 422, errors };
  const meta = documentUploadSchema.safeParse({ tipo: input.tipo, riferimento: input.riferimento });
  if (!meta.success) errors.push(...meta.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
  const riferimento = meta.success ? meta.data.riferimento ?? 'soggetto' : 'soggetto';
  if (meta.success && riferimento !== 'soggetto' && !uboList(row).some((u) => u.id === riferimento)) {
    errors.push({ path: 'riferimento', message: 'Il documento deve riferirsi al cliente o a uno dei titolari effettivi indicati' });
  }
  if (!input.bytes.length) errors.push({ path: 'file', message: 'Scegli un file da caricare' });
  if (errors.length) return { ok: false, status: 422, errors };
  // The case's share, before the bytes are stored (the workflow's activity checks it again under the case's lock).
  const refusal = await withTenant(deps.db, { codAzienda: row.cod_azienda, actor: 'cliente' }, async (trx) =>
    documentLimitRefusal(await documentLimits(trx, row.cod_azienda), await documentUsage(trx, row.id), input.bytes.length));
  if (refusal) return limitResult(refusal.status, refusal.code, refusal.details);
  const name = displayName(input.filename);
  // A browser labels a file by its extension; API clients may send octet-stream: then the name's extension is the label.
  const declared = input.declaredMime && input.declaredMime !== 'application/octet-stream' ? input.declaredMime : EXT_MIME[extname(name).toLowerCase()];
  const sniff = await sniffDocument(input.bytes, declared);
  if (!sniff.ok) return { ok: false, status: declared && (await sniffDocument(input.bytes)).ok ? 422 : 415, errors: [{ path: 'file', message: sniff.message }] };
  const store = new DocumentStore(deps.config.documentDir);
  const sha256 = await store.put(row.cod_azienda, input.bytes);
  const document: DocumentMeta = { id: randomUUID(), tipo: meta.data!.tipo, riferimento, nome_file: name, mime: sniff.mime, dimensione: input.bytes.length, sha256 };
  try {
    await editOnboarding(await onboardingTemporal(deps), row, { kind: 'document-add', document });
  } catch (err) {
    // Refused (case no longer editable, owner gone): bytes no row points to are not kept.
    const used = await withTenant(deps.db, { codAzienda: row.cod_azienda, actor: 'cliente' }, async (trx) =>
      (await trx('onboarding_documents').where({ sha256 }).first('id')) ?? (await trx('documenti_spine').where({ cod_azienda: row.cod_azienda, sha256 }).first('id')));
    if (!used) await store.remove(row.cod_azienda, sha256);
    // A parallel upload took the case's last share meanwhile: the same answer as the check above.
    if (err instanceof HttpError && LIMIT_CODES.has(err.code)) return limitResult(err.status as 413 | 422, err.code, err.extra);
    throw err;
  }
  return { ok: true, document };
}

export async function deleteDocument(deps: Deps, row: CaseRow, docId: string): Promise<void> {
  const doc = isUuid(docId) ? (await caseDocuments(deps, row)).find((d) => d.id === docId) : undefined;
  if (!doc) throw notFound('Documento', 'm');
  // The activity deletes the row and the bytes no other document of the tenant uses.
  await editOnboarding(await onboardingTemporal(deps), row, { kind: 'document-delete', documentId: docId });
}

const ADDRESS_FORMAT: Record<string, { re: RegExp; message: string }> = {
  ETH: { re: /^0x[0-9a-fA-F]{40}$/, message: 'Indirizzo Ethereum non valido (0x seguito da 40 cifre esadecimali)' },
  ERC20: { re: /^0x[0-9a-fA-F]{40}$/, message: 'Indirizzo Ethereum non valido (0x seguito da 40 cifre esadecimali)' },
  BTC: { re: /^([13][1-9A-HJ-NP-Za-km-z]{25,34}|(bc1|BC1)[02-9ac-hj-np-zAC-HJ-NP-Z]{11,71})$/, message: 'Indirizzo Bitcoin non valido' },
};

/**
 * Adds a wallet. A signed message is checked here: it must be the case's own text
 * (walletProofMessage, else 422 on prova.messaggio naming it), and a signature that does
 * not match the address is refused (422 on prova.firma, the applicant signs again); a chain
 * we cannot check is stored with verificata null for the analyst.
 */
export async function addWallet(deps: Deps, row: CaseRow, raw: unknown): Promise<WalletRow> {
  const r = walletInputSchema.safeParse(raw);
  if (!r.success) throw ValidationError.fromZod(r.error);
  const w = r.data;
  const fmt = ADDRESS_FORMAT[w.rete];
  if (fmt && !fmt.re.test(w.indirizzo)) throw new ValidationError([{ path: 'indirizzo', message: fmt.message }]);
  // The signed declaration lists the wallets it covers: one added afterwards would pass as declared.
  const tr = ((row.travel_rule ?? {}) as { stato?: string }).stato;
  if (tr && tr !== 'none') {
    throw new ValidationError([{ path: 'travel_rule', message: 'La dichiarazione sui wallet è già in firma o firmata: annullala per aggiungere un wallet, poi firmala di nuovo' }]);
  }
  const existing = await caseWallets(deps, row);
  if (existing.some((x) => x.rete === w.rete && x.indirizzo.toLowerCase() === w.indirizzo.toLowerCase())) {
    throw new ValidationError([{ path: 'indirizzo', message: 'Questo wallet è già stato indicato' }]);
  }
  let prova: WalletInput['prova'] = null;
  if (w.prova?.metodo === 'firma_messaggio') {
    const expected = walletProofMessage(row.id, row.cod_azienda, w.rete, w.indirizzo);
    if (w.prova.messaggio!.trim() !== expected) {
      throw new ValidationError([{ path: 'prova.messaggio', message: `Firma con il wallet esattamente questo messaggio: ${expected}` }], 'La firma deve riguardare il messaggio di questa pratica');
    }
    const check = verifyWalletProof(w.rete, w.indirizzo, w.prova.messaggio!, w.prova.firma!);
    if (check.result === 'invalid') throw new ValidationError([{ path: 'prova.firma', message: check.message }], 'La firma non dimostra il controllo del wallet');
    prova = { metodo: 'firma_messaggio', messaggio: w.prova.messaggio, firma: w.prova.firma, verificata: check.result === 'valid' ? true : null };
  } else if (w.prova) {
    prova = { metodo: 'dichiarazione', verificata: null };
  }
  const wallet: WalletInput = {
    id: randomUUID(), rete: w.rete, indirizzo: w.indirizzo, tipo: w.tipo, vasp_nome: w.vasp_nome ?? null, volume_annuo_eur: w.volume_annuo_eur ?? null, prova,
  };
  await editOnboarding(await onboardingTemporal(deps), row, { kind: 'wallet-add', wallet });
  const added = (await caseWallets(deps, row)).find((x) => x.id === wallet.id);
  if (!added) throw new HttpError(500, 'INTERNAL', 'Errore interno', 'wallet not recorded');
  return added;
}

export interface SigningRef { ceremony_id: string; signing_path: string }
const signingRef = (deps: Deps, ceremonyId: string): SigningRef => ({ ceremony_id: ceremonyId, signing_path: signingPath(deps, ceremonyId) });

/** Starts the signature of the travel-rule declaration (self-hosted wallets, Reg. UE 2023/1113). */
export async function signTravelRule(deps: Deps, row: CaseRow, raw: unknown): Promise<SigningRef> {
  const r = travelRuleDeclarationSchema.safeParse(raw);
  if (!r.success) throw ValidationError.fromZod(r.error);
  if (!(await caseWallets(deps, row)).length) throw new ValidationError([{ path: 'wallets', message: 'Aggiungi almeno un wallet prima di firmare la dichiarazione' }]);
  const res = await editOnboarding(await onboardingTemporal(deps), row, { kind: 'travel-rule-sign', declaration: { ...r.data, versione: TRAVEL_RULE_VERSION } });
  if (!res.ceremonyId) throw new HttpError(500, 'INTERNAL', 'Errore interno', 'no ceremony started');
  return signingRef(deps, res.ceremonyId);
}

/** Records the signed declaration on the case; 409 SIGNATURE_PENDING while it is unsigned. */
export async function completeTravelRule(deps: Deps, row: CaseRow): Promise<{ ceremony_id: string | null }> {
  const res = await editOnboarding(await onboardingTemporal(deps), row, { kind: 'travel-rule-complete' });
  return { ceremony_id: res.ceremonyId ?? null };
}

export async function resetTravelRule(deps: Deps, row: CaseRow): Promise<void> {
  await editOnboarding(await onboardingTemporal(deps), row, { kind: 'travel-rule-reset' });
}

/**
 * Submits the case: the workflow validates it (422 with the issues), screens, scores the
 * risk and starts the declarations ceremony, whose signing path is returned.
 */
export async function submitCase(deps: Deps, row: CaseRow): Promise<{ state: OnboardingWorkflowState; firma: SigningRef | null }> {
  const state = await transitionOnboarding(await onboardingTemporal(deps), row, { action: 'submit' });
  return { state, firma: state.declarations ? signingRef(deps, state.declarations.ceremonyId) : null };
}

export type CompleteSubmissionResult = { done: true; row: CaseRow } | { done: false; firma: SigningRef };

/**
 * Completes the submission once the declarations are signed. While the signature is
 * pending (or the last ceremony ended unsigned and the workflow started a new one) the
 * answer is the ceremony to sign, not an error.
 */
export async function completeSubmission(deps: Deps, row: CaseRow): Promise<CompleteSubmissionResult> {
  // The signature's signal completes the submission by itself: a late call is already done.
  if (row.stato !== 'submitted') {
    if (row.submitted_at && !EDITABLE_STATES.includes(row.stato)) return { done: true, row };
    throw conflict('INVALID_TRANSITION', 'La pratica non è stata ancora inviata', { state: row.stato, action: 'complete-submission', allowed_actions: allowedActions(onboardingMachine, row.stato, customerActor(row.id)) });
  }
  const t = await onboardingTemporal(deps);
  try {
    const state = await transitionOnboarding(t, row, { action: 'complete-submission' });
    if (state.status !== 'submitted') return { done: true, row: await reloadCase(deps, row) };
    if (state.declarations) return { done: false, firma: signingRef(deps, state.declarations.ceremonyId) };
  } catch (err) {
    if (!(err instanceof HttpError) || err.code !== 'SIGNATURE_PENDING') throw err;
    const id = (err.extra.ceremony_id as string | undefined) ?? (await reloadCase(deps, row)).declarations_ceremony_id;
    if (id) return { done: false, firma: signingRef(deps, id) };
    throw err;
  }
  return { done: true, row: await reloadCase(deps, row) };
}

/**
 * GDPR erasure of a draft: the workflow's activity blanks the data and deletes the
 * documents (rows and bytes); then the workflow's history (which carried the edits) is
 * deleted and the applicant's session ends. After submission: 409 AML_RETENTION.
 */
export async function eraseCase(deps: Deps, ctx: Ctx, row: CaseRow): Promise<void> {
  const t = await onboardingTemporal(deps);
  const ceremonies = await withTenant(deps.db, { codAzienda: row.cod_azienda, actor: 'cliente' }, (trx) =>
    trx('esign_ceremonies').where({ parent_workflow_id: row.workflow_id }).pluck('workflow_id')) as string[];
  await transitionOnboarding(t, row, { action: 'erase' });
  await deleteErasedHistory(t, row, ceremonies);
  await endCustomerSession(deps, ctx);
}

export interface StartCaseInput { email: string; subject_type?: SubjectType; cod_azienda?: string }

/**
 * Opens a case from the public form: the tenant is the link's (cod_azienda) or the
 * installation's default; the tenant must accept public onboarding. The timer settings
 * are fixed into the workflow's input, and the applicant gets a session for the case.
 */
export async function startCase(deps: Deps, ctx: Ctx, input: StartCaseInput): Promise<{ caseId: string; codAzienda: string }> {
  const codAzienda = input.cod_azienda || deps.config.onboardingDefaultAzienda;
  if (!codAzienda || !/^[A-Za-z0-9_-]{1,32}$/.test(codAzienda)) throw notFound('Modulo di onboarding', 'm');
  const s = await withTenant(deps.db, { codAzienda, actor: 'cliente' }, async (trx) => {
    const az = await trx('aziende').where({ cod_azienda: codAzienda }).first('attiva');
    if (!az?.attiva) return null;
    return {
      pubblico: await getSetting(trx, 'onboarding.pubblico', codAzienda),
      draftIdleDays: await getSetting(trx, 'onboarding.draft_expiry_days', codAzienda),
      infoReminderDays: await getSetting(trx, 'onboarding.info_reminder_days', codAzienda),
      infoExpiryDays: await getSetting(trx, 'onboarding.info_expiry_days', codAzienda),
    };
  });
  if (!s) throw notFound('Modulo di onboarding', 'm');
  if (!s.pubblico) throw new HttpError(403, 'ONBOARDING_CLOSED', 'Onboarding non disponibile', 'Al momento non è possibile aprire nuove pratiche online');
  // Each case is a workflow and a row: a public form that creates them is limited per address.
  const wait = await countRequest(deps.platformDb, [{ key: `onboarding-start:ip:${ctx.ip}`, max: 30, windowMinutes: 15 }]);
  if (wait) throw tooManyRequests('Troppe richieste di apertura da questo indirizzo: riprova più tardi', wait);
  const r = await startOnboarding(await onboardingTemporal(deps), {
    codAzienda, data: { email: input.email, canale: 'online', subjectType: input.subject_type ?? null },
    settings: { draftIdleDays: s.draftIdleDays, infoReminderDays: s.infoReminderDays, infoExpiryDays: s.infoExpiryDays },
  });
  await createCustomerSession(deps, ctx, { caseId: r.caseId, codAzienda });
  return { caseId: r.caseId, codAzienda };
}
