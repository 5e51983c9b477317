import type { Knex } from 'knex';
import { z } from 'zod';
import type { Deps } from '../../deps';
import { withTenant } from '../../db/tenant';
import type { SessionUser } from '../../http/context';
import { notFound } from '../../http/errors';
import { allowedActions } from '../../../workflows/lib/machine';
import { SUBJECT_TYPES, type OnboardingTransitionArgs, type SubjectType } from '../../../workflows/onboarding/onboarding.contract';
import {
  ONBOARDING_STATES, onboardingMachine, walletMachine, type OnboardingAction, type OnboardingStatus, type WalletStatus,
} from '../../../workflows/onboarding/onboarding.machine';
import { appendAudit, CHAIN_ORDER } from '../audit';
import { isUuid } from '../../kit/ids';
import { quota } from '../../http/share-format';
import { testo, testoOpzionale } from '../../http/text-field';
import { countryName, EU_HIGH_RISK } from './countries';
import { DocumentStore } from './document-store';
import {
  CAMPO_LABELS, VALORE_LABELS,
} from './onboarding-admin.labels';
import { cddAnswerLabel, cddSchemaFor, isKnownCddVersion } from './onboarding.cdd-schema';
import { transitionOnboarding, type CaseRef, type OnboardingTemporal } from './onboarding.commands';
import { staffActor } from '../../kit/actor';
import { listParamsShape, runList, tenantScope } from '../../kit/list';
import { onboardingCasesList } from './onboarding-admin.list';

/** Reviewers' reads of onboarding cases (tenant-scoped, from PostgreSQL) and their decisions (through the case's workflow). */

const blankToUndefined = z.literal('').transform(() => undefined);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Data non valida (AAAA-MM-GG)').refine((d) => !Number.isNaN(Date.parse(d)), 'Data non valida');
export const RISK_CLASSES = ['basso', 'medio', 'medio_alto', 'alto'] as const;

export const adminListQuery = z.object({
  stato: z.enum(ONBOARDING_STATES, { error: 'Stato non valido' }).optional().or(blankToUndefined),
  rischio: z.enum(RISK_CLASSES, { error: 'Classe di rischio non valida' }).optional().or(blankToUndefined),
  tipo_soggetto: z.enum(SUBJECT_TYPES, { error: 'Tipo di cliente non valido' }).optional().or(blankToUndefined),
  /** Creation date of the case, from and to (both inclusive, Italian calendar days). */
  from: day.optional().or(blankToUndefined),
  to: day.optional().or(blankToUndefined),
  q: z.string().trim().max(200, 'Massimo 200 caratteri').optional(),
  ...listParamsShape(onboardingCasesList),
}).refine((v) => !v.from || !v.to || v.from <= v.to, { path: ['to'], message: 'La data finale deve seguire quella iniziale' });
export type AdminListQuery = z.infer<typeof adminListQuery>;

const requiredText = (max: number, message: string) => z.preprocess((v) => (v === null ? undefined : v),
  testo({ max, multiline: true, vuoto: message }));

/** Bodies of the reviewers' decisions (API and page forms alike). */
export const noteBody = z.object({ note: testoOpzionale({ max: 2000, multiline: true }) });
export const rejectBody = z.object({ reason: requiredText(2000, 'Indica il motivo del rifiuto') });
export const requestInfoBody = z.object({ message: requiredText(4000, 'Scrivi quali informazioni servono al cliente') });
export const revokeWalletBody = z.object({ reason: requiredText(2000, 'Indica il motivo della revoca') });

export interface OnboardingCaseRow {
  id: string; cod_azienda: string; stato: OnboardingStatus; tipo_soggetto: SubjectType | null; email: string | null; canale: string;
  anagrafe: Record<string, unknown>; ubo: unknown; cdd_answers: Record<string, unknown>; cdd_schema_version: string | null;
  countries: unknown; travel_rule: Record<string, unknown>; validation: unknown; screening: Record<string, unknown> | null;
  risk: Record<string, unknown> | null; risk_score: number | null; risk_classe: string | null; pep: boolean | null;
  declarations_ceremony_id: string | null; travel_rule_ceremony_id: string | null; submitted_at: Date | null; submissions: number;
  approved_by: string | null; approved_by_username: string | null; approved_at: Date | null; second_approver_username: string | null;
  decided_at: Date | null; rejection_reason: string | null; info_request_message: string | null; info_requested_at: Date | null;
  cod_anagrafe: string | null; erased_at: Date | null; expired_at: Date | null; last_edit_at: Date; workflow_id: string;
  created_at: Date; updated_at: Date;
}

/** The reviewers' list (onboardingCasesList): keyset pages, capped count, the tenant predicate explicit. */
export const listOnboardingCases = (trx: Knex.Transaction, codAzienda: string, q: AdminListQuery) =>
  runList<Pick<OnboardingCaseRow, 'id' | 'stato'> & Record<string, unknown>>(trx, onboardingCasesList, tenantScope(codAzienda), q);

const db = (deps: Deps, codAzienda: string, user: SessionUser) => <T>(fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(deps.db, { codAzienda, actor: user.username }, fn);

export async function onboardingTemporal(deps: Deps): Promise<OnboardingTemporal> {
  return { client: await deps.temporal.get(), taskQueue: deps.temporal.taskQueue };
}

/** The case or 404: another tenant's case is invisible under RLS, so it is "not found" too. */
async function getCaseRow(trx: Knex.Transaction, id: string): Promise<OnboardingCaseRow> {
  const row = isUuid(id) ? await trx('onboarding_cases').where({ id }).first() : undefined;
  if (!row) throw notFound('Pratica di onboarding');
  return row as OnboardingCaseRow;
}

const asArray = (v: unknown, key: string): Record<string, unknown>[] => {
  const a = Array.isArray(v) ? v : v && typeof v === 'object' && Array.isArray((v as Record<string, unknown>)[key]) ? (v as Record<string, unknown[]>)[key] : [];
  return (a ?? []).filter((x): x is Record<string, unknown> => !!x && typeof x === 'object');
};
const fullName = (p: Record<string, unknown>) => [p.nome, p.cognome].filter((x) => typeof x === 'string' && x).join(' ');

/** The wallet actions the caller may take now: the case must allow them, then the wallet's own machine decides. */
function walletActions(caseAllowed: OnboardingAction[], status: WalletStatus, user: SessionUser) {
  return allowedActions(walletMachine, status, staffActor(user))
    .filter((a) => caseAllowed.includes(a === 'verify' ? 'wallet-verify' : 'wallet-revoke'));
}

function cddView(row: OnboardingCaseRow) {
  const stored = row.cdd_answers ?? {};
  const risposte = (stored.risposte && typeof stored.risposte === 'object' ? stored.risposte : stored) as Record<string, unknown>;
  const versione = row.cdd_schema_version ?? (typeof stored.versione === 'string' ? stored.versione : null);
  if (!isKnownCddVersion(versione)) {
    return { versione, risposte: Object.entries(risposte).map(([id, v]) => ({ id, domanda: id, risposta: v, risposta_label: String(v) })) };
  }
  const questions = cddSchemaFor(row.tipo_soggetto, versione).domande;
  const known = new Set(questions.map((q) => q.id));
  return {
    versione,
    risposte: [
      ...questions.map((q) => ({ id: q.id, domanda: q.etichetta, risposta: risposte[q.id] ?? null, risposta_label: cddAnswerLabel(q, risposte[q.id]) })),
      ...Object.entries(risposte).filter(([id]) => !known.has(id)).map(([id, v]) => ({ id, domanda: id, risposta: v, risposta_label: String(v) })),
    ],
  };
}

const toNumber = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** Everything the applicant gave and what the process made of it, for one reviewer. */
export async function onboardingDetail(deps: Deps, codAzienda: string, user: SessionUser, id: string) {
  return db(deps, codAzienda, user)(async (trx) => {
    const row = await getCaseRow(trx, id);
    // One transaction is one connection: its queries run one after the other.
    const docs = await trx('onboarding_documents').where({ case_id: id }).orderBy([{ column: 'created_at' }, { column: 'id' }]);
    const wallets = await trx('onboarding_wallets').where({ case_id: id }).orderBy([{ column: 'created_at' }, { column: 'id' }]);
    const ceremonies = await trx('esign_ceremonies').where({ parent_workflow_id: row.workflow_id }).orderBy('created_at')
      .select('id', 'stato', 'document_name', 'signed_at', 'expires_at', 'created_at', 'workflow_id');
    const titolari = asArray(row.ubo, 'titolari');
    const ownerName = new Map(titolari.map((t) => [String(t.id), fullName(t)]));
    const related = [id, ...docs.map((d: { id: string }) => d.id), ...wallets.map((w: { id: string }) => w.id), ...ceremonies.map((c: { id: string }) => c.id)];
    const timeline: TimelineEvent[] = await trx('audit_events').where({ cod_azienda: codAzienda }).whereIn('entity_id', related).orderByRaw(CHAIN_ORDER).limit(1000)
      .select('seq', 'action', 'actor', 'occurred_at', 'entity_type', 'entity_id', 'data');
    const allowed = allowedActions(onboardingMachine, row.stato, staffActor(user), { approved_by: row.approved_by });
    const travelRule = row.travel_rule ?? {};
    const scopo = (cid: string) => (cid === row.declarations_ceremony_id ? 'dichiarazioni'
      : cid === row.travel_rule_ceremony_id || cid === travelRule.ceremony_id ? 'travel_rule' : null);
    return {
      id: row.id, cod_azienda: row.cod_azienda, stato: row.stato, tipo_soggetto: row.tipo_soggetto, email: row.email, canale: row.canale,
      denominazione: (typeof row.anagrafe?.denominazione === 'string' && row.anagrafe.denominazione) || fullName(row.anagrafe ?? {}) || null,
      created_at: row.created_at, updated_at: row.updated_at, last_edit_at: row.last_edit_at, submitted_at: row.submitted_at, submissions: row.submissions,
      approved_by: row.approved_by, approved_by_username: row.approved_by_username, approved_at: row.approved_at,
      second_approver_username: row.second_approver_username, decided_at: row.decided_at, rejection_reason: row.rejection_reason,
      info_request_message: row.info_request_message, info_requested_at: row.info_requested_at, cod_anagrafe: row.cod_anagrafe,
      erased_at: row.erased_at, expired_at: row.expired_at,
      anagrafe: row.anagrafe ?? {},
      titolari,
      documents: docs.map((d: Record<string, unknown>) => ({
        id: d.id, tipo: d.tipo, riferimento: d.riferimento,
        riferimento_nome: d.riferimento === 'soggetto' ? null : ownerName.get(String(d.riferimento)) ?? null,
        nome_file: d.nome_file, mime: d.mime, dimensione: d.dimensione, sha256: d.sha256, uploaded_by: d.uploaded_by, created_at: d.created_at,
        download_url: `/api/v1/admin/onboarding/cases/${row.id}/documents/${String(d.id)}/download`,
      })),
      cdd: cddView(row),
      countries: asArray(row.countries, 'paesi').map((c) => ({
        paese: c.paese, paese_nome: typeof c.paese === 'string' ? countryName(c.paese) : null, ruolo: c.ruolo,
        alto_rischio: typeof c.paese === 'string' && EU_HIGH_RISK.has(c.paese),
      })),
      wallets: wallets.map((w: Record<string, unknown>) => ({
        id: w.id, rete: w.rete, indirizzo: w.indirizzo, tipo: w.tipo, vasp_nome: w.vasp_nome, volume_annuo_eur: toNumber(w.volume_annuo_eur),
        prova: w.prova ?? null, stato: w.stato, screening: w.screening ?? null, verified_by: w.verified_by, verified_at: w.verified_at,
        revoked_by: w.revoked_by, revoked_at: w.revoked_at, revoke_reason: w.revoke_reason,
        allowed_actions: walletActions(allowed, w.stato as WalletStatus, user),
      })),
      screening: row.screening ?? null,
      risk: row.risk ?? null, risk_score: row.risk_score, risk_classe: row.risk_classe, pep: row.pep,
      validation: row.validation ?? null,
      travel_rule: travelRule,
      ceremonies: ceremonies.map((c: Record<string, unknown>) => ({ ...c, scopo: scopo(String(c.id)) })),
      allowed_actions: allowed,
      timeline,
      workflow: { id: row.workflow_id, url: deps.temporal.webUiLink(row.workflow_id) },
    };
  });
}
export type OnboardingDetail = Awaited<ReturnType<typeof onboardingDetail>>;
export interface TimelineEvent { seq: number | null; action: string; actor: string; occurred_at: Date; entity_type: string; entity_id: string; data: Record<string, unknown> }

export type ReviewAction = Extract<OnboardingAction, 'approve' | 'complete-approval' | 'reject' | 'request-info' | 'wallet-verify' | 'wallet-revoke'>;

/** A reviewer's decision: the workflow checks the machine (state, role, four-eyes) and writes the projection. */
export async function reviewOnboarding(deps: Deps, codAzienda: string, user: SessionUser, id: string, action: ReviewAction, input: OnboardingTransitionArgs['input'] = {}) {
  const row = await db(deps, codAzienda, user)(async (trx) => {
    const r = await getCaseRow(trx, id);
    if (input.wallet_id !== undefined) {
      const w = isUuid(input.wallet_id) ? await trx('onboarding_wallets').where({ id: input.wallet_id, case_id: id }).first('id') : undefined;
      if (!w) throw notFound('Wallet della pratica', 'm');
    }
    return r;
  });
  const ref: CaseRef = { id: row.id, cod_azienda: row.cod_azienda, stato: row.stato, workflow_id: row.workflow_id, approved_by: row.approved_by };
  await transitionOnboarding(await onboardingTemporal(deps), ref, { action, actor: staffActor(user), input });
  return onboardingDetail(deps, codAzienda, user, id);
}

const EXTENSIONS: Record<string, string[]> = { 'application/pdf': ['pdf'], 'image/jpeg': ['jpg', 'jpeg'], 'image/png': ['png'] };

/**
 * A Content-Disposition that cannot break out of its header or name a path: the applicant
 * chose the name, so it is reduced to safe characters, and the extension follows the
 * sniffed type rather than what the name claims.
 */
export function attachmentDisposition(name: string, mime: string): string {
  const exts = EXTENSIONS[mime] ?? [];
  // Format characters (bidi overrides such as U+202E) would show a name other than the real one.
  // eslint-disable-next-line no-control-regex
  let base = name.normalize('NFC').replace(/[\p{Cc}\p{Cf}]/gu, '').replace(/[\u0000-\u001f\u007f"\\/:*?<>|]+/g, '_').replace(/^[.\s]+/, '').trim().slice(0, 120) || 'documento';
  if (exts.length && !exts.some((e) => base.toLowerCase().endsWith(`.${e}`))) base = `${base}.${exts[0]}`;
  // NFKD turns full-width forms into ASCII ('＂' into '"', '＼' into '\'): the quoted fallback is cleaned after it.
  const ascii = base.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').replace(/["\\/:*?<>|%;]/g, '_').replace(/^[.\s]+/, '') || `documento.${exts[0] ?? 'bin'}`;
  const encoded = encodeURIComponent(base).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** A document's bytes for a reviewer; the download is audited because the document is personal data. */
export async function downloadDocument(deps: Deps, codAzienda: string, user: SessionUser, caseId: string, docId: string) {
  return db(deps, codAzienda, user)(async (trx) => {
    await getCaseRow(trx, caseId);
    const doc = isUuid(docId) ? await trx('onboarding_documents').where({ id: docId, case_id: caseId }).first() : undefined;
    if (!doc) throw notFound('Documento', 'm');
    const bytes = await new DocumentStore(deps.config.documentDir).get(doc.cod_azienda, doc.sha256);
    await appendAudit(trx, {
      codAzienda, actor: user.username, action: 'onboarding.document.download', entityType: 'onboarding_document', entityId: doc.id,
      data: { case_id: caseId, tipo: doc.tipo, sha256: doc.sha256, dimensione: doc.dimensione },
    });
    return { bytes, mime: doc.mime as string, disposition: attachmentDisposition(doc.nome_file, doc.mime) };
  });
}

export interface FieldRow { label: string; value: string }
export interface FieldGroup { title: string | null; rows: FieldRow[] }
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const COUNTRY_FIELDS = new Set(['paese', 'nazionalita', 'paese_residenza', 'paese_costituzione']);
const FIELD_ORDER = Object.keys(CAMPO_LABELS);
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isAddress = (v: Record<string, unknown>) => 'via' in v || 'citta' in v;
const isIdDocument = (v: Record<string, unknown>) => 'numero' in v && 'tipo' in v;
const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** The applicant's fields in the page's order (the JSON column keeps its own order), blanks left out. */
function orderedEntries(data: Record<string, unknown> | null | undefined, skip: readonly string[]) {
  const rank = (k: string) => { const i = FIELD_ORDER.indexOf(k); return i < 0 ? FIELD_ORDER.length : i; };
  return Object.entries(data ?? {}).filter(([k, v]) => !skip.includes(k) && v !== undefined && v !== null && v !== '')
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
}

function formatValue(key: string, v: unknown): string {
  if (typeof v === 'boolean') return v ? 'Sì' : 'No';
  if (Array.isArray(v)) return v.map((x) => formatValue(key, x)).join(', ');
  if (isObject(v) && isAddress(v)) {
    const city = [str(v.cap), str(v.citta)].filter(Boolean).join(' ') + (v.provincia ? ` (${str(v.provincia)})` : '');
    return [str(v.via), city, v.paese ? formatValue('paese', v.paese) : ''].filter(Boolean).join(', ');
  }
  if (isObject(v) && isIdDocument(v)) {
    return [formatValue('tipo', v.tipo), v.numero ? `n. ${str(v.numero)}` : '', v.rilasciato_da ? `rilasciato da ${str(v.rilasciato_da)}` : '',
      v.scadenza ? `scadenza ${formatValue('scadenza', v.scadenza)}` : ''].filter(Boolean).join(', ');
  }
  if (isObject(v)) return fieldRows(v).map((r) => `${r.label}: ${r.value}`).join('; ');
  const s = String(v);
  if (VALORE_LABELS[key]?.[s]) return VALORE_LABELS[key][s];
  if (COUNTRY_FIELDS.has(key) && /^[A-Z]{2}$/.test(s)) return `${countryName(s)} (${s})`;
  if (DATE.test(s)) return s.split('-').reverse().join('/');
  if (key === 'percentuale') return /^\d+([.,]\d+)?$/.test(s) ? quota(s) : `${s}%`;
  return s;
}

/** Labelled rows of one level of the applicant's data; addresses and identity documents read as one line each. */
export function fieldRows(data: Record<string, unknown> | null | undefined, skip: readonly string[] = ['id']): FieldRow[] {
  return orderedEntries(data, skip).map(([k, v]) => ({ label: CAMPO_LABELS[k] ?? k, value: formatValue(k, v) }));
}

/** The rows of the subject itself, then one group per nested person (the legal representative). */
export function fieldGroups(data: Record<string, unknown> | null | undefined): FieldGroup[] {
  const main: FieldRow[] = [];
  const groups: FieldGroup[] = [];
  for (const [k, v] of orderedEntries(data, ['id'])) {
    if (isObject(v) && !isAddress(v) && !isIdDocument(v)) groups.push({ title: CAMPO_LABELS[k] ?? k, rows: fieldRows(v) });
    else main.push({ label: CAMPO_LABELS[k] ?? k, value: formatValue(k, v) });
  }
  return [{ title: null, rows: main }, ...groups].filter((g) => g.rows.length > 0);
}

