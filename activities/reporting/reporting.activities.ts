import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import { withTenant } from '../../src/db/tenant';
import { appendAudit } from '../../src/domains/audit';
import { notify } from '../../src/domains/notifications';
import { messaging, type Messaging } from '../../src/domains/outbox';
import { REPORT_TIPO_LABELS } from '../../src/domains/reporting/reporting.labels';
import { REPORT_NOT_FOUND, type ReportActivities, type ReportProjection, type ReportRecord } from '../../workflows/reporting/reporting.contract';
import type { ActivityDeps } from '../deps';
import { generateLines, writeLines } from './reporting.generate';

const notFound = (id: string) => ApplicationFailure.create({ type: REPORT_NOT_FOUND, message: `report ${id} not found`, nonRetryable: true });

/** Outside an activity (a test calling the function) there is nobody to heartbeat to. */
function heartbeat(detail: string) {
  try { Context.current().heartbeat(detail); } catch { /* not running as an activity */ }
}

async function lock(trx: Knex.Transaction, id: string): Promise<ReportRecord> {
  const row = await trx('reporting_reports').where({ id }).forUpdate().first();
  if (!row) throw notFound(id);
  return row as ReportRecord;
}

/** The fields a transition writes on the row besides its state. */
function transitionFields(p: ReportProjection, now: Date): Record<string, unknown> {
  if (p.action === 'approve') return { approved_by: p.actor.id, approved_at: now };
  if (p.action === 'complete-submission' && p.to === 'completed') return { completed_at: now };
  return {};
}

/**
 * The report workflow's side of the database: the report row, its lines and the operations
 * behind them, its submissions, and the audit events, each step in one tenant transaction.
 * Transitions are idempotent on the state they leave (the workflow serialises them): a retry
 * that finds the row already moved answers the row.
 */
export function createReportingActivities(deps: ActivityDeps, m: Messaging = messaging(deps)): ReportActivities {
  const { db } = deps;
  const tx = <T>(codAzienda: string, actor: string, fn: (trx: Knex.Transaction) => Promise<T>) => withTenant(db, { codAzienda, actor }, fn);
  const progress = (codAzienda: string, reportId: string) => async (pct: number, fase: string) => {
    heartbeat(fase);
    await tx(codAzienda, 'system', (trx) => trx('reporting_reports').where({ id: reportId, stato: 'generating' }).update({ progresso: pct, fase, updated_at: new Date() }));
  };

  return {
    async createReportProjection(p) {
      return tx(p.codAzienda, p.actor.username, async (trx) => {
        const inserted = await trx('reporting_reports').insert({
          id: p.reportId, cod_azienda: p.codAzienda, tipo: p.tipo, periodo: p.periodo, stato: 'generating', fase: 'In coda',
          generated_by: p.actor.id, generated_by_username: p.actor.username, due_at: p.dueAt, workflow_id: p.workflowId,
        }).onConflict('id').ignore().returning('*');
        if (!inserted.length) return (await trx('reporting_reports').where({ id: p.reportId }).first()) as ReportRecord;
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: 'reporting.create', entityType: 'reporting', entityId: p.reportId,
          data: { tipo: p.tipo, periodo: p.periodo, due_at: p.dueAt, workflow_id: p.workflowId },
        });
        return inserted[0] as ReportRecord;
      });
    },

    async generateReport(p) {
      const row = await tx(p.codAzienda, p.actor.username, (trx) => lock(trx, p.reportId));
      if (row.stato !== 'generating') return { negativa: !!row.negativa, righe: row.righe, operazioni: row.operazioni };
      const step = progress(p.codAzienda, p.reportId);
      await step(10, 'Lettura dei movimenti del mese');
      const generated = await tx(p.codAzienda, p.actor.username, (trx) => generateLines(trx, p.codAzienda, row.tipo, row.periodo, step));
      await step(70, `Scrittura di ${generated.lines.length} righe`);
      const operazioni = generated.lines.reduce((n, l) => n + l.operazioni.length, 0);
      const totale = generated.lines.reduce((n, l) => n + l.totale_cents, 0);
      await tx(p.codAzienda, p.actor.username, async (trx) => {
        await lock(trx, p.reportId);
        await writeLines(trx, p.codAzienda, p.reportId, generated.lines, randomUUID);
        await trx('reporting_reports').where({ id: p.reportId }).update({
          negativa: generated.negativa, righe: generated.lines.length, operazioni, totale_eur: (totale / 100).toFixed(2), progresso: 90, fase: 'Righe scritte', updated_at: new Date(),
        });
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: 'reporting.generate', entityType: 'reporting', entityId: p.reportId,
          data: { tipo: row.tipo, periodo: row.periodo, movimenti_letti: generated.lette, righe: generated.lines.length, operazioni, totale_eur: (totale / 100).toFixed(2), negativa: generated.negativa },
        });
      });
      return { negativa: generated.negativa, righe: generated.lines.length, operazioni };
    },

    async finishReportGeneration(p) {
      return tx(p.codAzienda, p.actor.username, async (trx) => {
        const row = await lock(trx, p.reportId);
        if (row.stato !== 'generating') return row;
        const [record] = await trx('reporting_reports').where({ id: p.reportId }).update({
          stato: p.ok ? 'generated' : 'failed', progresso: 100, fase: p.ok ? 'Generata' : 'Generazione non riuscita',
          errore: p.ok ? null : (p.error ?? 'errore sconosciuto').slice(0, 1000), updated_at: new Date(),
        }).returning('*');
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: p.ok ? 'reporting.generated' : 'reporting.failed', entityType: 'reporting', entityId: p.reportId,
          data: p.ok ? { righe: row.righe, operazioni: row.operazioni, negativa: row.negativa } : { error: (p.error ?? '').slice(0, 500) },
        });
        return record as ReportRecord;
      });
    },

    async projectReportTransition(p) {
      return tx(p.codAzienda, p.actor.username, async (trx) => {
        const row = await lock(trx, p.reportId);
        if (row.stato !== p.from) return row;
        const now = new Date();
        const a = p.args;
        if (p.action === 'submit') {
          const [{ n }] = await trx('reporting_submissions').where({ report_id: p.reportId }).max<{ n: number | null }[]>({ n: 'n' });
          await trx('reporting_submissions').insert({
            id: a.submissionId, cod_azienda: p.codAzienda, report_id: p.reportId, n: (n ?? 0) + 1, riferimento: a.riferimento ?? null, inviata_da: p.actor.username, inviata_at: now,
          });
        }
        if (p.action === 'complete-submission') {
          await trx('reporting_submissions').where({ id: a.submissionId, report_id: p.reportId }).update({
            esito: a.esito, protocollo: a.protocollo ?? null, note: a.note ?? null, esito_da: p.actor.username, esito_at: now,
          });
        }
        const [record] = await trx('reporting_reports').where({ id: p.reportId }).update({ stato: p.to, ...transitionFields(p, now), updated_at: now }).returning('*');
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: `reporting.${p.action}`, entityType: 'reporting', entityId: p.reportId,
          data: {
            from: p.from, to: p.to, transition_id: p.transitionId,
            ...(a.submissionId ? { submission_id: a.submissionId } : {}), ...(a.riferimento ? { riferimento: a.riferimento } : {}),
            ...(a.esito ? { esito: a.esito } : {}), ...(a.protocollo ? { protocollo: a.protocollo } : {}),
          },
        });
        return record as ReportRecord;
      });
    },

    async noticeReportDeadline(p) {
      const r = await tx(p.codAzienda, 'system', async (trx) => {
        const row = await lock(trx, p.reportId);
        const overdue = p.kind === 'overdue';
        // One notice per kind: the flag is the key, so a retried activity writes nothing twice.
        if (overdue ? row.overdue : row.due_soon) return { created: 0, recipients: [], messages: [] };
        await trx('reporting_reports').where({ id: p.reportId }).update({ [overdue ? 'overdue' : 'due_soon']: true, updated_at: new Date() });
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: 'system', action: `reporting.${p.kind}`, entityType: 'reporting', entityId: p.reportId,
          data: { due_at: p.dueAt, stato: row.stato },
        });
        const day = new Date(p.dueAt).toLocaleDateString('it-IT', { timeZone: 'Europe/Rome' });
        const what = `${REPORT_TIPO_LABELS[row.tipo]} ${row.periodo}`;
        return notify(trx, {
          codAzienda: p.codAzienda, recipients: [row.generated_by], role: 'co',
          tipo: overdue ? 'reporting_overdue' : 'reporting_due_soon',
          titolo: overdue ? `Termine di invio scaduto: ${what}` : `In scadenza il ${day}: ${what}`,
          messaggio: overdue ? `Il termine del ${day} è passato e la segnalazione non risulta inviata.` : 'Il termine di invio alla UIF si avvicina: approvala e inviala.',
          link: `/reporting/${p.reportId}`, entity: { type: 'reporting', id: p.reportId }, dedupKey: `reporting-${p.kind}:${p.reportId}`,
        }, m.outbox);
      });
      await m.dispatch(r.messages);
      return { notified: r.created };
    },
  };
}
