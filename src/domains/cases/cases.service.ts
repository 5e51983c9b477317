import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import { assertReferencesInTenant } from '../../db/references';
import { withTenant } from '../../db/tenant';
import type { SessionUser } from '../../http/context';
import { notFound } from '../../http/errors';
import { caseMachine } from '../../../workflows/case/case.machine';
import type { CaseTransitionArgs } from '../../../workflows/case/case.contract';
import { allowedActions } from '../../../workflows/lib/machine';
import type { CaseReply } from '../../../workflows/case/case.contract';
import type { ProcessClient } from '../../kit/process';
import { createCase, transitionCase } from './cases.commands';
import { isUuid } from '../../kit/ids';
import { Case } from './case.model';
import { getCase, readSlaDays, type CaseRow } from './cases.repo';
import type { CreateCaseInput } from './cases.schemas';
import { staffActor } from '../../kit/actor';

/** What the API and the pages share: tenant-scoped reads from PostgreSQL, writes through the workflow. */

const db = (deps: Deps, codAzienda: string, user: SessionUser) => <T>(fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(deps.db, { codAzienda, actor: user.username }, fn);

export async function caseTemporal(deps: Deps): Promise<ProcessClient> {
  return { client: await deps.temporal.get(), taskQueue: deps.temporal.taskQueue };
}

/** The case or 404: another tenant's case is invisible under RLS, so it is "not found" too. */
export async function requireCase(deps: Deps, codAzienda: string, user: SessionUser, id: string): Promise<CaseRow> {
  const row = await db(deps, codAzienda, user)((trx) => getCase(trx, id));
  if (!row) throw notFound('Caso', 'm');
  return row;
}

export function allowedFor(row: CaseRow, user: SessionUser) {
  return allowedActions(caseMachine, row.stato, staffActor(user), { ...row });
}

export async function caseDetail(deps: Deps, codAzienda: string, user: SessionUser, id: string) {
  return db(deps, codAzienda, user)(async (trx) => {
    // The case with its timeline and audit trail in one graph read (three queries, one transaction).
    const found = isUuid(id) ? await Case.of(trx).findById(id).withGraphFetched('[events, audit]') : undefined;
    if (!found) throw notFound('Caso', 'm');
    const { events = [], audit = [], ...row } = found.toJSON() as unknown as Case;
    return {
      ...(row as CaseRow),
      allowed_actions: allowedFor(row as CaseRow, user),
      events,
      audit,
      workflow: { id: row.workflow_id, url: deps.temporal.webUiLink(row.workflow_id) },
    };
  });
}

/** The answer to a write, from the update's own result (never a second read that could fail after the commit). */
function replyView(deps: Deps, user: SessionUser, reply: CaseReply & { record: NonNullable<CaseReply['record']> }) {
  const row = reply.record as unknown as CaseRow;
  return {
    ...row,
    allowed_actions: allowedFor(row, user),
    workflow: { id: row.workflow_id, url: deps.temporal.webUiLink(row.workflow_id) },
    ...(reply.event ? { event: reply.event } : {}),
  };
}

/** `opts.caseId`: an id chosen by the caller (another area opening the case for its record: the same record, the same case). */
export async function openCase(deps: Deps, codAzienda: string, user: SessionUser, data: CreateCaseInput, opts: { caseId?: string } = {}) {
  const slaDays = await db(deps, codAzienda, user)(async (trx) => {
    // The assignee and the subject must be this tenant's (another tenant's is "not found").
    await assertReferencesInTenant(trx, codAzienda, { assegnatario: { kind: 'utente', value: data.assegnatario }, cod_anagrafe: { kind: 'soggetto', value: data.cod_anagrafe } });
    return readSlaDays(trx, codAzienda, data.priorita);
  });
  const { caseId, reply } = await createCase(await caseTemporal(deps), { codAzienda, user, data, slaDays, ...(opts.caseId ? { caseId: opts.caseId } : {}) });
  // A repeated create (the same record id) answers without the row: read it then.
  const record = reply.record ?? await requireCase(deps, codAzienda, user, caseId);
  return { caseId, view: replyView(deps, user, { ...reply, record: record as NonNullable<CaseReply['record']> }) };
}

export async function applyTransition(deps: Deps, codAzienda: string, user: SessionUser, id: string, args: Omit<CaseTransitionArgs, 'actor'>) {
  if (!isUuid(id)) throw notFound('Caso', 'm');
  const reply = await transitionCase(await caseTemporal(deps), { codAzienda, caseId: id }, user, args, () => requireCase(deps, codAzienda, user, id));
  // Histories recorded before projections answered their row carry none: read it then.
  const record = reply.record ?? await requireCase(deps, codAzienda, user, id);
  return replyView(deps, user, { ...reply, record: record as unknown as NonNullable<CaseReply['record']> });
}
