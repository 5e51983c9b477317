import { WorkflowNotFoundError, type ApplicationFailure } from '@temporalio/client';
import type { Knex } from 'knex';
import { recordSearchAttributes } from '../../../temporal/search-attributes';
import {
  createFilingUpdate, FILING_INVALID, FILING_RECORD_TYPE, FILING_WORKFLOW_TYPE, filingTransitionUpdate, filingWorkflowId,
  SIGNATURE_PENDING, type FilingFindingRecord, type FilingNewData, type FilingReply, type FilingTransitionArgs, type FilingWorkflowInput,
} from '../../../workflows/filing/filing.contract';
import { filingMachine } from '../../../workflows/filing/filing.machine';
import { allowedActions, isFinal } from '../../../workflows/lib/machine';
import type { Deps } from '../../deps';
import { withTenant } from '../../db/tenant';
import type { SessionUser } from '../../http/context';
import { conflict, HttpError, notFound, ValidationError } from '../../http/errors';
import { staffActor } from '../../kit/actor';
import { decideInTransaction, executeUpdate, startWithUpdate, type ProcessClient, type RejectionMessages } from '../../kit/process';
import { newRecordId } from '../../kit/request-context';
import { reportOf, verdictOf } from './filing.content';
import { filingEvents, getFiling, linkedSos, type FilingRow } from './filing.repo';
import type { CreateFilingInput } from './filing.schemas';
import { filingEsignToken } from './filing.tokens';
import { jurisdictionConfig } from './goaml/jurisdiction';
import { loadJurisdiction } from './goaml/jurisdiction-loader';

const MESSAGES: RejectionMessages = { FOUR_EYES_REQUIRED: 'La segnalazione deve essere approvata da un utente diverso da chi l\'ha preparata' };

const db = (deps: Deps, codAzienda: string, user: SessionUser) => <T>(fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(deps.db, { codAzienda, actor: user.username, principal: { user: user.cod_utente, roles: user.ruoli } }, fn);

const pc = async (deps: Deps): Promise<ProcessClient> => ({ client: await deps.temporal.get(), taskQueue: deps.temporal.taskQueue });

/** The filing or 404: another tenant's is invisible under row-level security, so "not found" too. */
export async function requireFiling(deps: Deps, codAzienda: string, user: SessionUser, id: string): Promise<FilingRow> {
  const row = await db(deps, codAzienda, user)((trx) => getFiling(trx, id));
  if (!row) throw notFound('Segnalazione');
  return row;
}

export const allowedFor = (row: FilingRow, user: SessionUser) => allowedActions(filingMachine, row.stato, staffActor(user), { ...row });

/** The answer for a filing: the row without the package's bytes, the actions this user may take, the signing link while signing. */
export function filingView(deps: Deps, user: SessionUser, row: FilingRow) {
  const { package_xml: _xml, ...rest } = row;
  const signing = row.stato === 'signing' && row.ceremony_id && user.ruoli.includes('co')
    ? { signing_url: `/esign/ceremony/${row.ceremony_id}?token=${filingEsignToken(deps.config.sessionSecret, row.ceremony_id)}` } : {};
  return { ...rest, allowed_actions: allowedFor(row, user), workflow: { id: row.workflow_id, url: deps.temporal.webUiLink(row.workflow_id) }, ...signing };
}

export async function filingDetail(deps: Deps, codAzienda: string, user: SessionUser, id: string) {
  return db(deps, codAzienda, user)(async (trx) => {
    const row = await getFiling(trx, id);
    if (!row) throw notFound('Segnalazione');
    return { ...filingView(deps, user, row), events: await filingEvents(trx, id), sos: await linkedSos(trx, id) };
  });
}

const findingErrors = (findings: FilingFindingRecord[]) => findings.map((f) => ({ path: f.path ? `content.${f.path}` : 'content', message: `${f.code}: ${f.message}`, code: f.code }));

/** The filing's own refusals: invalid content is a 422 with the findings, a pending signature a 409. */
function failures(type: string, failure: ApplicationFailure): HttpError | undefined {
  const details = (failure.details?.[0] ?? {}) as { findings?: FilingFindingRecord[] };
  if (type === FILING_INVALID) {
    const e = new ValidationError(findingErrors(details.findings ?? []), 'Il contenuto non supera la validazione: correggi i campi indicati');
    Object.assign(e.extra, { findings: details.findings ?? [] });
    return e;
  }
  if (type === SIGNATURE_PENDING) return conflict(SIGNATURE_PENDING, 'La firma non è ancora completata', { details });
  return undefined;
}

export async function createFiling(deps: Deps, codAzienda: string, user: SessionUser, data: CreateFilingInput & Pick<FilingNewData, 'parent_id' | 'cod_anagrafe' | 'riservata' | 'sos_id'>, filingId = newRecordId()) {
  const workflowId = filingWorkflowId(codAzienda, filingId);
  const input: FilingWorkflowInput = { codAzienda, filingId, createdAt: new Date().toISOString(), tipo: data.tipo, periodo: data.periodo_riferimento ?? null };
  const reply = await startWithUpdate(await pc(deps), {
    workflowType: FILING_WORKFLOW_TYPE, workflowId, input,
    searchAttributes: recordSearchAttributes({ codAzienda, recordType: FILING_RECORD_TYPE, recordId: filingId, status: filingMachine.initial }),
    update: createFilingUpdate, args: [{ actor: staffActor(user), data }], map: { failures },
  });
  const record = (reply.record as FilingRow | null) ?? await requireFiling(deps, codAzienda, user, filingId);
  return { filingId, view: filingView(deps, user, record) };
}

/**
 * One transition, decided by the filing's workflow. Only when no workflow runs (an unknown id,
 * another tenant's, or an archived filing whose workflow ended) is the row read, for 404 or 409.
 */
export async function transitionFiling(deps: Deps, codAzienda: string, user: SessionUser, id: string, args: Omit<FilingTransitionArgs, 'actor'>): Promise<FilingReply & { record: FilingRow }> {
  const row = await requireFiling(deps, codAzienda, user, id);
  const actor = staffActor(user);
  try {
    const reply = await executeUpdate(await pc(deps), filingWorkflowId(codAzienda, id), filingTransitionUpdate, [{ ...args, actor }], { messages: MESSAGES, failures });
    return { ...reply, record: (reply.record as FilingRow | null) ?? await requireFiling(deps, codAzienda, user, id) };
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    if (isFinal(filingMachine, row.stato)) decideInTransaction(filingMachine, { state: row.stato, action: args.action, actor, record: { ...row }, input: { ...args }, messages: MESSAGES });
    throw notFound('Segnalazione');
  }
}

export async function applyFilingTransition(deps: Deps, codAzienda: string, user: SessionUser, id: string, args: Omit<FilingTransitionArgs, 'actor'>) {
  const reply = await transitionFiling(deps, codAzienda, user, id, args);
  return filingView(deps, user, reply.record);
}

/** A returned filing's follow-up: the old one records the link (the machine decides), then the new draft starts with its content. */
export async function followUpFiling(deps: Deps, codAzienda: string, user: SessionUser, id: string) {
  const followUpId = newRecordId();
  const reply = await transitionFiling(deps, codAzienda, user, id, { action: 'follow-up', followUpId });
  const old = reply.record;
  const made = await createFiling(deps, codAzienda, user, {
    titolo: `Seguito: ${old.titolo}`.slice(0, 200), tipo: old.tipo, periodo_riferimento: old.periodo_riferimento ?? undefined,
    content: old.content as CreateFilingInput['content'], parent_id: old.id, cod_anagrafe: old.cod_anagrafe ?? null, riservata: old.riservata ?? false,
  }, old.follow_up_id ?? followUpId);
  return { ...filingView(deps, user, old), follow_up: { id: made.filingId } };
}

/** The package for a jurisdiction before it is rendered: the XML and the validator's verdict (writes nothing). */
export async function previewFiling(deps: Deps, row: FilingRow, q: { jurisdiction?: string; report_code?: string }) {
  const id = q.jurisdiction ?? row.jurisdiction;
  if (!id || !jurisdictionConfig(id)) throw new ValidationError([{ path: 'jurisdiction', message: 'Indica la giurisdizione (la segnalazione non è ancora classificata)' }]);
  const j = await loadJurisdiction(deps.config.goamlDataDir, id);
  const reportCode = q.report_code ?? row.report_code;
  const verdict = await verdictOf({ ...row, report_code: reportCode }, j);
  return { jurisdiction: id, schema_version: verdict.schemaVersion, report_code: reportCode, valid: verdict.valid, findings: verdict.findings, xml: verdict.xml };
}

export { reportOf };
