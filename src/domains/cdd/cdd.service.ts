import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import { withTenant } from '../../db/tenant';
import type { SessionUser } from '../../http/context';
import { notFound, ValidationError } from '../../http/errors';
import { staffActor } from '../../kit/actor';
import { runList, tenantScope } from '../../kit/list';
import type { CddTaskRecord } from '../../../workflows/cdd/cdd-task.contract';
import { appendAudit } from '../audit';
import { cddReviewsList } from './cdd-review.list';
import { cddAllowedActions, type CddDeps } from './cdd-task.commands';
import { cddTasksList } from './cdd-task.list';
import { cddEvidence, cddHistoryForCustomer, cddTaskAudit, getCddTask, type CddEvidenceRow, type CddTaskRow } from './cdd-task.repo';
import type { ListCddTasksQuery, ListSchedulesQuery } from './cdd.schemas';

/** What the API and the pages share: tenant-scoped reads, writes through the workflow (cdd-task.commands.ts). */

export async function cddDeps(deps: Deps): Promise<CddDeps> {
  return { db: deps.db, client: await deps.temporal.get(), taskQueue: deps.temporal.taskQueue };
}

/** A task as the API answers it: the record, the caller's next actions, the workflow and its link in the Temporal UI. */
export function cddTaskView(deps: Pick<Deps, 'temporal'>, user: SessionUser, record: CddTaskRecord | CddTaskRow) {
  const row = record as CddTaskRow;
  return { ...row, allowed_actions: cddAllowedActions(row, staffActor(user)), workflow: { id: row.workflow_id, url: deps.temporal.webUiLink(row.workflow_id) } };
}

/** A task by id or code with its evidence and audit trail (the detail page, GET /api/cdd/tasks/:id). */
export async function cddTaskDetail(deps: Pick<Deps, 'temporal'>, trx: Knex.Transaction, user: SessionUser, idOrCode: string) {
  const row = await getCddTask(trx, idOrCode);
  if (!row) throw notFound('Pratica di adeguata verifica');
  const questionari = await trx('questionari').where({ cdd_pratica_id: row.id }).orderBy('created_at', 'desc').select('cod_questionario', 'stato', 'completed_at');
  return { ...cddTaskView(deps, user, row), evidenze: await cddEvidence(trx, row.id), audit: await cddTaskAudit(trx, row.id), questionari };
}

export function listCddTasks(trx: Knex.Transaction, codAzienda: string, q: ListCddTasksQuery, me: string) {
  const req: ListCddTasksQuery = { ...q, assegnatario: q.assegnatario === 'me' ? me : q.assegnatario };
  return runList<CddTaskRow>(trx, cddTasksList, tenantScope(codAzienda), req);
}

/** Due and overdue periodic reviews, with whether each is late. */
export async function listCddSchedules(trx: Knex.Transaction, codAzienda: string, q: ListSchedulesQuery) {
  const page = await runList<{ stato: string; due_at: Date }>(trx, cddReviewsList, tenantScope(codAzienda), q);
  const now = Date.now();
  return { ...page, items: page.items.map((r) => ({ ...r, in_ritardo: r.stato === 'scaduta' || (r.stato === 'programmata' && new Date(r.due_at).getTime() < now) })) };
}

/** The customer's tasks, newest first; a customer of another tenant is not found. */
export async function cddHistory(trx: Knex.Transaction, codAnagrafe: string) {
  const customer = await trx('anagrafe').where({ cod_anagrafe: codAnagrafe }).first('cod_anagrafe');
  if (!customer) throw notFound('Cliente', 'm');
  return { cod_anagrafe: codAnagrafe, items: await cddHistoryForCustomer(trx, codAnagrafe) };
}

export const CDD_EVIDENCE_TYPES = ['documento', 'verifica_fonte', 'nota', 'questionario', 'altro'] as const;

/**
 * Adds a piece of evidence to a task still being worked (the pages' evidence form); the bytes,
 * when there are any, are stored by the caller and named here by hash, name, type and size.
 */
export async function addCddEvidence(db: Knex, p: {
  codAzienda: string; user: SessionUser; task: string; tipo: (typeof CDD_EVIDENCE_TYPES)[number]; descrizione: string; riferimento?: string | null;
  file?: { sha256: string; nome_file: string; mime: string; dimensione: number } | null;
}): Promise<CddEvidenceRow> {
  return withTenant(db, { codAzienda: p.codAzienda, actor: p.user.username }, async (trx) => {
    const task = await getCddTask(trx, p.task);
    if (!task) throw notFound('Pratica di adeguata verifica');
    if (!['open', 'in_progress', 'pending_review'].includes(task.stato)) {
      throw new ValidationError([{ path: 'descrizione', message: 'La pratica è chiusa: non si possono aggiungere evidenze' }]);
    }
    const descrizione = p.descrizione.trim();
    if (!descrizione) throw new ValidationError([{ path: 'descrizione', message: 'Descrivi l\'evidenza' }]);
    const id = randomUUID();
    const [row] = await trx('cdd_evidenze').insert({
      id, cod_azienda: p.codAzienda, cdd_pratica_id: task.id, tipo: p.tipo, descrizione, riferimento: p.riferimento?.trim() || null,
      ...(p.file ? { sha256: p.file.sha256, nome_file: p.file.nome_file, mime: p.file.mime, dimensione: p.file.dimensione } : {}),
      created_by: p.user.username,
    }).returning('*');
    await appendAudit(trx, {
      codAzienda: p.codAzienda, actor: p.user.username, action: 'cdd_task.evidence', entityType: 'cdd_task', entityId: task.id,
      data: { cod_pratica: task.cod_pratica, evidenza_id: id, tipo: p.tipo, ...(p.file ? { sha256: p.file.sha256, nome_file: p.file.nome_file } : {}) },
    });
    return row as CddEvidenceRow;
  });
}
