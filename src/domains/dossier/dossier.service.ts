import { WorkflowNotFoundError, type ApplicationFailure } from '@temporalio/client';
import type { Knex } from 'knex';
import { recordSearchAttributes } from '../../../temporal/search-attributes';
import {
  createDossierUpdate, DOSSIER_RECORD_TYPE, DOSSIER_SUBJECT_UNKNOWN, DOSSIER_WORKFLOW_TYPE, dossierTransitionUpdate, dossierWorkflowId,
  SIGNATURE_PENDING, type DossierRecord, type DossierTransitionArgs, type DossierWorkflowInput,
} from '../../../workflows/dossier/dossier.contract';
import { dossierMachine } from '../../../workflows/dossier/dossier.machine';
import { normaliseSections } from '../../../workflows/dossier/dossier.sections';
import { allowedActions, isFinal } from '../../../workflows/lib/machine';
import type { Deps } from '../../deps';
import { withTenant } from '../../db/tenant';
import type { SessionUser } from '../../http/context';
import { conflict, HttpError, notFound, ValidationError } from '../../http/errors';
import { staffActor } from '../../kit/actor';
import { decideInTransaction, executeUpdate, startWithUpdate, type ProcessClient } from '../../kit/process';
import { newRecordId } from '../../kit/request-context';
import { appendAudit } from '../audit';
import { getCustomer } from '../records';
import { DOSSIER_COLUMNS } from './dossier.columns';
import { dossierEvents, getDossier } from './dossier.repo';
import type { GenerateDossierInput } from './dossier.schemas';
import { dossierEsignToken } from './dossier.tokens';

const db = (deps: Deps, codAzienda: string, user: SessionUser) => <T>(fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(deps.db, { codAzienda, actor: user.username }, fn);
const pc = async (deps: Deps): Promise<ProcessClient> => ({ client: await deps.temporal.get(), taskQueue: deps.temporal.taskQueue });
const unknownSubject = () => new ValidationError([{ path: 'cod_anagrafe', message: 'Nessun cliente con questo codice' }]);

/** The dossier or 404: another tenant's is invisible under row-level security, so "not found" too. */
export async function requireDossier(deps: Deps, codAzienda: string, user: SessionUser, id: string): Promise<DossierRecord> {
  const row = await db(deps, codAzienda, user)((trx) => getDossier(trx, id));
  if (!row) throw notFound('Fascicolo', 'm');
  return row;
}

export const downloadUrl = (row: Pick<DossierRecord, 'id' | 'cod_anagrafe'>, api = true) =>
  `${api ? '/api' : ''}/dossier/download/${encodeURIComponent(row.cod_anagrafe)}?id=${row.id}`;

/** The answer for a dossier: the row, the actions this user may take, the links to download it and, while signing, to sign it. */
export function dossierView(deps: Deps, user: SessionUser, row: DossierRecord) {
  const signing = row.stato === 'signing' && row.ceremony_id && user.ruoli.includes('co')
    ? { signing_url: `/esign/ceremony/${row.ceremony_id}?token=${dossierEsignToken(deps.config.sessionSecret, row.ceremony_id)}` } : {};
  return {
    ...row, allowed_actions: allowedActions(dossierMachine, row.stato, staffActor(user), { ...row }),
    workflow: { id: row.workflow_id, url: deps.temporal.webUiLink(row.workflow_id) }, download_url: downloadUrl(row), ...signing,
  };
}

export async function dossierDetail(deps: Deps, codAzienda: string, user: SessionUser, id: string) {
  return db(deps, codAzienda, user)(async (trx) => {
    const row = await getDossier(trx, id);
    if (!row) throw notFound('Fascicolo', 'm');
    return { ...dossierView(deps, user, row), events: await dossierEvents(trx, id) };
  });
}

function failures(type: string, failure: ApplicationFailure): HttpError | undefined {
  if (type === DOSSIER_SUBJECT_UNKNOWN) return unknownSubject();
  if (type === SIGNATURE_PENDING) return conflict(SIGNATURE_PENDING, 'La firma non è ancora completata', { details: failure.details?.[0] ?? {} });
  return undefined;
}

/** A new dossier of a customer of this tenant: its workflow starts with the generation (the PDF, its hash, the signed manifest). */
export async function generateDossier(deps: Deps, codAzienda: string, user: SessionUser, input: GenerateDossierInput) {
  const exists = await db(deps, codAzienda, user)((trx) => getCustomer(trx, input.cod_anagrafe));
  if (!exists) throw unknownSubject();
  const dossierId = newRecordId();
  const workflowId = dossierWorkflowId(codAzienda, dossierId);
  const input_: DossierWorkflowInput = { codAzienda, dossierId };
  const reply = await startWithUpdate(await pc(deps), {
    workflowType: DOSSIER_WORKFLOW_TYPE, workflowId, input: input_,
    searchAttributes: recordSearchAttributes({ codAzienda, recordType: DOSSIER_RECORD_TYPE, recordId: dossierId, status: dossierMachine.initial }),
    update: createDossierUpdate, args: [{ actor: staffActor(user), data: { cod_anagrafe: input.cod_anagrafe, sezioni: normaliseSections(input.sezioni) } }], map: { failures },
  });
  const record = (reply.record as DossierRecord | null) ?? await requireDossier(deps, codAzienda, user, dossierId);
  return dossierView(deps, user, record);
}

/**
 * One transition, decided by the dossier's workflow. Only when no workflow runs (an archived
 * dossier whose workflow ended) is the row read, for the machine's 409.
 */
export async function transitionDossier(deps: Deps, codAzienda: string, user: SessionUser, id: string, args: Omit<DossierTransitionArgs, 'actor'>) {
  const row = await requireDossier(deps, codAzienda, user, id);
  const actor = staffActor(user);
  try {
    const reply = await executeUpdate(await pc(deps), dossierWorkflowId(codAzienda, id), dossierTransitionUpdate, [{ ...args, actor }], { failures });
    return dossierView(deps, user, (reply.record as DossierRecord | null) ?? await requireDossier(deps, codAzienda, user, id));
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    if (isFinal(dossierMachine, row.stato)) decideInTransaction(dossierMachine, { state: row.stato, action: args.action, actor, record: { ...row }, input: { ...args } });
    throw notFound('Fascicolo', 'm');
  }
}

export interface DossierDownload { fileName: string; type: string; body: Buffer | string }

/**
 * A customer's dossier as a file, the newest unless `id` names one of that customer's: the PDF or
 * its signed manifest. Every download is an audit event, written before the bytes leave.
 */
export async function downloadDossier(deps: Deps, codAzienda: string, user: SessionUser, codAnagrafe: string, q: { id?: string | undefined; formato: 'pdf' | 'manifest' }): Promise<DossierDownload> {
  return db(deps, codAzienda, user)(async (trx) => {
    const row = await trx('dossiers').where({ cod_anagrafe: codAnagrafe }).modify((b) => { if (q.id) b.where({ id: q.id }); })
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
      .first([...DOSSIER_COLUMNS, ...(q.formato === 'pdf' ? ['pdf'] : [])]) as (DossierRecord & { pdf?: Buffer }) | undefined;
    if (!row) throw notFound('Fascicolo', 'm');
    await appendAudit(trx, {
      codAzienda, actor: user.username, action: 'dossier.download', entityType: 'dossier', entityId: row.id,
      data: { cod_anagrafe: codAnagrafe, formato: q.formato, sha256: row.pdf_sha256, stato: row.stato },
    });
    const base = `fascicolo-${row.cod_anagrafe}-${row.id.slice(0, 8)}`;
    if (q.formato === 'manifest') {
      return { fileName: `${base}.manifest.json`, type: 'application/json', body: JSON.stringify({ manifest: row.manifest, jws: row.manifest_jws }, null, 2) };
    }
    return { fileName: `${base}.pdf`, type: 'application/pdf', body: row.pdf! };
  });
}
