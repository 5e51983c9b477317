import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import { withTenant } from '../../src/db/tenant';
import { appendAudit } from '../../src/domains/audit';
import { nextCode } from '../../src/domains/records';
import {
  EDD_FAILURES, type EddCreation, type EddProjection, type EddRecord, type EddStepInput, type EddStepRecord,
} from '../../workflows/edd/edd.contract';
import { stepColumns } from '../../src/domains/edd/edd.repo';
import { notify, type NotifyInput } from '../../src/domains/notifications';
import { messaging, type Messaging, type QueuedMessage } from '../../src/domains/outbox';
import type { ActivityDeps } from '../deps';

const notFound = (id: string) => ApplicationFailure.create({ type: EDD_FAILURES.notFound, message: `EDD case ${id} not found`, nonRetryable: true });

/** jsonb values go through JSON: the pg driver would turn a JS array into a PostgreSQL array. */
const json = (v: unknown) => JSON.stringify(v ?? null);

const stepRow = (codAzienda: string, eddId: string, actor: string, ordine: number, s: EddStepInput) => ({
  id: s.id, cod_azienda: codAzienda, edd_id: eddId, ordine, tipo: s.tipo, titolo: s.titolo.trim(), descrizione: s.descrizione ?? '',
  assegnatario: s.assegnatario || null, scadenza: s.scadenza || null, stato: 'aperto', created_by: actor,
});

async function nextOrdine(trx: Knex.Transaction, eddId: string): Promise<number> {
  const r = await trx('edd_step').where({ edd_id: eddId }).max({ m: 'ordine' }).first();
  return Number(r?.m ?? 0) + 1;
}

/** Was this transition already written? Its audit event carries the transition id. */
async function alreadyWritten(trx: Knex.Transaction, p: EddProjection): Promise<boolean> {
  const r = await trx('audit_events').where({ cod_azienda: p.codAzienda, entity_type: 'edd', entity_id: p.eddId })
    .whereRaw("data->>'transition_id' = ?", [p.transitionId]).first('id');
  return !!r;
}

/** What each transition changes on the case row, besides its state. */
function casePatch(p: EddProjection, now: Date): Record<string, unknown> {
  switch (p.action) {
    case 'approva': return { submitted_by: p.actor.id, submitted_at: now, motivo_respingimento: null };
    case 'approva-supervisore': return { approved_by: p.actor.id, approved_at: now };
    case 'respingi': return { submitted_by: null, submitted_at: null, motivo_respingimento: p.reason };
    case 'chiudi': return { closed_by: p.actor.id, closed_at: now, nota_chiusura: p.reason || null };
    default: return {};
  }
}

/** The compliance officers of the tenant who may approve: every active `co` but the submitter (four-eyes). */
async function supervisorsBut(trx: Knex.Transaction, codAzienda: string, submitter: string): Promise<string[]> {
  const rows = await trx('utenti').where({ cod_azienda: codAzienda, attivo: true }).whereRaw("ruoli && '{co}'::text[]").whereNot('cod_utente', submitter).select('cod_utente');
  return rows.map((r: { cod_utente: string }) => r.cod_utente);
}

/** Who hears of a transition: the supervisors when a case waits for them, the submitter when it is decided. */
async function notificationFor(trx: Knex.Transaction, p: EddProjection, row: { cod_edd: string; submitted_by: string | null }): Promise<NotifyInput | undefined> {
  const base = { codAzienda: p.codAzienda, link: `/edd/${p.eddId}`, entity: { type: 'edd', id: p.eddId }, dedupKey: `edd:${p.transitionId}` };
  switch (p.action) {
    case 'approva':
      return { ...base, recipients: await supervisorsBut(trx, p.codAzienda, p.actor.id), tipo: 'edd_da_approvare', titolo: `Verifica rafforzata da approvare: ${row.cod_edd}`,
        messaggio: 'Le misure rafforzate sono state completate e la verifica attende l\'approvazione di un responsabile antiriciclaggio.' };
    case 'approva-supervisore':
      return row.submitted_by ? { ...base, recipients: [row.submitted_by], tipo: 'edd_approvata', titolo: `Verifica rafforzata approvata: ${row.cod_edd}`, messaggio: 'La verifica può essere chiusa.' } : undefined;
    case 'respingi':
      return row.submitted_by ? { ...base, recipients: [row.submitted_by], tipo: 'edd_respinta', titolo: `Verifica rafforzata respinta: ${row.cod_edd}`, messaggio: `Motivo: ${p.reason ?? ''}` } : undefined;
    default:
      return undefined;
  }
}

/**
 * The EDD workflow's projection: every write to edd_casi, edd_step and audit_events happens
 * here, one transaction per step, idempotent so that a retried activity leaves one copy.
 */
export function createEddActivities(deps: ActivityDeps, m: Messaging = messaging(deps)) {
  const { db } = deps;
  return {
    /** Writes the case (with its progressive code), its opening steps and the audit event once; answers the row either way. */
    async createEddProjection(p: EddCreation): Promise<EddRecord> {
      return withTenant(db, { codAzienda: p.codAzienda, actor: p.actor.username }, async (trx) => {
        const existing = await trx('edd_casi').where({ id: p.eddId }).first();
        if (existing) return existing as EddRecord;
        const codEdd = await nextCode(trx, p.codAzienda, 'EDD');
        const [record] = await trx('edd_casi').insert({
          id: p.eddId, cod_azienda: p.codAzienda, cod_edd: codEdd, cod_anagrafe: p.data.cod_anagrafe, cdd_pratica_id: p.data.cdd_pratica_id ?? null,
          motivi: json(p.data.motivi), descrizione: p.data.descrizione ?? '', stato: 'open', opened_by: p.actor.id, workflow_id: p.workflowId,
        }).returning('*');
        if (p.data.steps.length) {
          await trx('edd_step').insert(p.data.steps.map((s, i) => stepRow(p.codAzienda, p.eddId, p.actor.id, i + 1, s)));
        }
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: 'edd.create', entityType: 'edd', entityId: p.eddId,
          data: {
            cod_edd: codEdd, cod_anagrafe: p.data.cod_anagrafe, motivi: p.data.motivi, to: 'open', workflow_id: p.workflowId,
            steps: p.data.steps.map((s) => s.tipo), ...(p.data.cdd_pratica_id ? { cdd_pratica_id: p.data.cdd_pratica_id } : {}),
          },
        });
        return record as EddRecord;
      });
    },

    /** One transition: the step it adds or completes, the case row and the audit event, once; answers the rows. */
    async projectEddTransition(p: EddProjection): Promise<{ record: EddRecord; step?: EddStepRecord }> {
      let messages: QueuedMessage[] = [];
      const written = await withTenant(db, { codAzienda: p.codAzienda, actor: p.actor.username }, async (trx) => {
        const current = await trx('edd_casi').where({ id: p.eddId }).forUpdate().first();
        if (!current) throw notFound(p.eddId);
        const stepId = p.action === 'aggiungi-step' ? p.step?.id : p.step_id;
        const readStep = async () => (stepId ? (await trx('edd_step').where({ id: stepId, edd_id: p.eddId }).first(stepColumns(trx))) as EddStepRecord : undefined);
        // A retry of a step already written: answer what it wrote.
        if (await alreadyWritten(trx, p)) return { record: current as EddRecord, step: await readStep() };

        const now = new Date();
        let stepData: Record<string, unknown> = {};
        if (p.action === 'aggiungi-step' && p.step) {
          const ordine = await nextOrdine(trx, p.eddId);
          await trx('edd_step').insert(stepRow(p.codAzienda, p.eddId, p.actor.id, ordine, p.step));
          stepData = { step_id: p.step.id, step_tipo: p.step.tipo, step_titolo: p.step.titolo, ordine };
        }
        if (p.action === 'completa-step' && p.step_id) {
          const done = await trx('edd_step').where({ id: p.step_id, edd_id: p.eddId, stato: 'aperto' }).update({
            stato: 'completato', esito: p.esito, riferimento_evidenza: p.riferimento_evidenza || null, completed_by: p.actor.id, completed_at: now,
          }).returning(['tipo', 'titolo']);
          if (!done.length) throw ApplicationFailure.create({ type: EDD_FAILURES.stepCompleted, message: `step ${p.step_id} is not open`, nonRetryable: true });
          stepData = { step_id: p.step_id, step_tipo: done[0].tipo, step_titolo: done[0].titolo };
        }
        const [record] = await trx('edd_casi').where({ id: p.eddId }).update({ stato: p.to, updated_at: now, ...casePatch(p, now) }).returning('*');
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: `edd.${p.action}`, entityType: 'edd', entityId: p.eddId,
          // A closing note is a note, not a reason: the timeline says "Nota".
          data: { from: p.from, to: p.to, transition_id: p.transitionId, ...(p.reason ? { [p.action === 'chiudi' ? 'note' : 'reason']: p.reason } : {}), ...stepData },
        });
        // Read before the patch: a rejection clears the submitter it tells.
        const notice = await notificationFor(trx, p, current);
        if (notice?.recipients?.length) messages = (await notify(trx, notice, m.outbox)).messages;
        return { record: record as EddRecord, step: await readStep() };
      });
      // After the commit: the e-mails exist exactly when the transition does.
      await m.dispatch(messages);
      return written;
    },
  };
}
