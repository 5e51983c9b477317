import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import { assertReferencesInTenant } from '../../db/references';
import { withTenant } from '../../db/tenant';
import { notFound, ValidationError } from '../../http/errors';
import { staffActor } from '../../kit/actor';
import { isUuid } from '../../kit/ids';
import type { ProcessClient } from '../../kit/process';
import { newRecordId } from '../../kit/request-context';
import type { SessionUser } from '../../http/context';
import type { EddMotivo, EddRecord, EddReply, EddStepInput, EddStepTipo, EddTransitionArgs } from '../../../workflows/edd/edd.contract';
import { eddMachine } from '../../../workflows/edd/edd.machine';
import { allowedActions, type MachineActor } from '../../../workflows/lib/machine';
import { createEdd, transitionEdd } from './edd.commands';
import { auditOf, customerOf, getEdd, stepsOf, type EddRow } from './edd.repo';
import { motiviForCustomer, standardStepsFor } from './edd.steps';

/** What the API, the pages and other areas share: tenant-scoped reads, writes through the workflow. */

const tx = (deps: Pick<Deps, 'db'>, codAzienda: string, actor: string) => <T>(fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(deps.db, { codAzienda, actor }, fn);

export async function eddTemporal(deps: Pick<Deps, 'temporal'>): Promise<ProcessClient> {
  return { client: await deps.temporal.get(), taskQueue: deps.temporal.taskQueue };
}

/** The case or 404: another tenant's case is invisible under RLS, so it is "not found" too. */
export async function requireEdd(deps: Deps, codAzienda: string, user: SessionUser, id: string): Promise<EddRow> {
  const row = await tx(deps, codAzienda, user.username)((trx) => getEdd(trx, id));
  if (!row) throw notFound('Verifica rafforzata');
  return row;
}

export const allowedFor = (row: Pick<EddRow, 'stato' | 'submitted_by'>, actor: MachineActor) =>
  allowedActions(eddMachine, row.stato, actor, { submitted_by: row.submitted_by });

const workflowLink = (deps: Deps, workflowId: string) => ({ id: workflowId, url: deps.temporal.webUiLink(workflowId) });

export async function eddDetail(deps: Deps, codAzienda: string, user: SessionUser, id: string) {
  return tx(deps, codAzienda, user.username)(async (trx) => {
    const row = await getEdd(trx, id);
    if (!row) throw notFound('Verifica rafforzata');
    const [steps, audit, customer] = [await stepsOf(trx, id), await auditOf(trx, codAzienda, id), await customerOf(trx, codAzienda, row.cod_anagrafe)];
    return { ...row, allowed_actions: allowedFor(row, staffActor(user)), steps, audit, customer, workflow: workflowLink(deps, row.workflow_id) };
  });
}

/** The answer to a write, from the update's own result (never a second read that could fail after the commit). */
function replyView(deps: Deps, actor: MachineActor, record: EddRecord, reply: EddReply) {
  return { ...record, allowed_actions: allowedFor(record as unknown as EddRow, actor), workflow: workflowLink(deps, record.workflow_id), ...(reply.step ? { step: reply.step } : {}) };
}

export interface OpenEddRequest {
  codAzienda: string;
  actor: MachineActor;
  codAnagrafe: string;
  /** Omitted: read from the customer (PEP, high-risk country, high risk class); empty is refused. */
  motivi?: EddMotivo[];
  descrizione?: string;
  /** The CDD task that required the case. */
  cddPraticaId?: string | null;
  /** The standard measures to keep; omitted: all those the reasons call for. */
  misure?: EddStepTipo[];
}

/**
 * Opens an EDD case for a customer of the tenant (the /edd/nuovo form, the API, and the CDD
 * process when its level is enhanced). The reasons default to what the customer's record
 * says; the case opens with the standard measures for them. 422 naming the field when the
 * customer or the CDD task is not the tenant's, the task is another customer's, or no reason applies.
 */
export async function openEddCase(deps: Deps, r: OpenEddRequest) {
  const { customer, pratica } = await tx(deps, r.codAzienda, r.actor.username)(async (trx) => {
    const found = await assertReferencesInTenant(trx, r.codAzienda, {
      cod_anagrafe: { kind: 'soggetto', value: r.codAnagrafe }, cdd_pratica_id: { kind: 'cdd_pratica', value: r.cddPraticaId },
    });
    return { customer: await customerOf(trx, r.codAzienda, r.codAnagrafe), pratica: found.cdd_pratica_id as { id: string; cod_anagrafe: string } | undefined };
  });
  if (!customer) throw new ValidationError([{ path: 'cod_anagrafe', message: 'Cliente non trovato in anagrafe' }]);
  // The task that required the case is one of this customer's: a case never points at another customer's due diligence.
  if (pratica && pratica.cod_anagrafe !== customer.cod_anagrafe) throw new ValidationError([{ path: 'cdd_pratica_id', message: 'La pratica di adeguata verifica riguarda un altro cliente' }]);
  // A deleted record is kept only for the retention period: no new due diligence on it.
  if (customer.stato === 'eliminato') throw new ValidationError([{ path: 'cod_anagrafe', message: 'Il cliente è stato eliminato: non si apre una verifica rafforzata' }]);
  if (r.motivi && !r.motivi.length) throw new ValidationError([{ path: 'motivi', message: 'Indica almeno un motivo della verifica rafforzata' }]);
  const motivi = r.motivi ? [...new Set(r.motivi)] : motiviForCustomer(customer);
  if (!motivi.length) throw new ValidationError([{ path: 'motivi', message: 'Il cliente non presenta motivi di verifica rafforzata: indicane almeno uno' }]);
  const proposed = standardStepsFor(motivi);
  const kept = r.misure ? proposed.filter((s) => r.misure!.includes(s.tipo)) : proposed;
  if (!kept.length) throw new ValidationError([{ path: 'misure', message: 'Scegli almeno una misura rafforzata' }]);
  const eddId = newRecordId();
  const steps: EddStepInput[] = kept.map((s) => ({ id: newRecordId(), tipo: s.tipo, titolo: s.titolo, descrizione: s.descrizione, assegnatario: null, scadenza: null }));
  const { reply } = await createEdd(await eddTemporal(deps), {
    codAzienda: r.codAzienda, actor: r.actor, eddId,
    data: { cod_anagrafe: customer.cod_anagrafe, motivi, descrizione: r.descrizione ?? '', cdd_pratica_id: pratica?.id ?? null, steps },
  });
  // A repeated create (the same record id) answers without the row: read it then.
  const record = reply.record ?? (await tx(deps, r.codAzienda, r.actor.username)((trx) => getEdd(trx, eddId))) as unknown as EddRecord;
  return { eddId, view: replyView(deps, r.actor, record, reply) };
}

export async function applyEddTransition(deps: Deps, codAzienda: string, user: SessionUser, id: string, args: Omit<EddTransitionArgs, 'actor'>) {
  if (!isUuid(id)) throw notFound('Verifica rafforzata');
  if (args.step?.assegnatario) {
    await tx(deps, codAzienda, user.username)((trx) => assertReferencesInTenant(trx, codAzienda, { assegnatario: { kind: 'utente', value: args.step!.assegnatario } }));
  }
  const actor = staffActor(user);
  const reply = await transitionEdd(await eddTemporal(deps), { codAzienda, eddId: id }, actor, args, () => requireEdd(deps, codAzienda, user, id));
  const record = reply.record ?? (await requireEdd(deps, codAzienda, user, id)) as unknown as EddRecord;
  return replyView(deps, actor, record, reply);
}
