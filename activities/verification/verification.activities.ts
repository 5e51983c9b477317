import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import { withTenant } from '../../src/db/tenant';
import { appendAudit } from '../../src/domains/audit';
import { computeDeadline } from '../../src/domains/verifications/kyc-kyb/verification.deadline';
import { allowedActions } from '../../workflows/lib/machine';
import {
  VERIFICATION_FAILURES, type OpenCheck, type VerificationDeadline, type VerificationProjection, type VerificationRecord,
} from '../../workflows/verification/verification.contract';
import { verificationMachine } from '../../workflows/verification/verification.machine';
import type { ActivityDeps } from '../deps';

const fail = (type: string, message: string, details?: unknown) => ApplicationFailure.create({ type, message, nonRetryable: true, ...(details ? { details: [details] } : {}) });

type Row = VerificationRecord;
interface Ref { codAzienda: string; verificaId: string }

async function lockRow(trx: Knex.Transaction, p: Ref): Promise<Row> {
  const row = await trx('verifiche').where({ cod_azienda: p.codAzienda, id: p.verificaId }).forUpdate().first();
  if (!row) throw fail(VERIFICATION_FAILURES.notFound, `verification ${p.verificaId} not found`);
  return row as Row;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The audit event of this transition, when it was already written (its data carries the transition id). */
async function writtenEvent(trx: Knex.Transaction, p: VerificationProjection) {
  return trx('audit_events').where({ cod_azienda: p.codAzienda, entity_type: 'verifica', entity_id: p.verificaId })
    .whereRaw("data->>'transition_id' = ?", [p.transitionId]).first('id');
}

/** What each transition sets on the row besides its state. */
function patchOf(p: VerificationProjection, now: Date): Record<string, unknown> {
  switch (p.action) {
    case 'start': return { started_by: p.actor.id, started_at: now, assegnata_a: p.actor.id };
    case 'approve': return { decided_by: p.actor.id, decided_at: now };
    case 'reject': return { decided_by: p.actor.id, decided_at: now, motivo_rifiuto: p.motivo };
    case 'expire': return { expired_at: now };
    default: return {};
  }
}

/**
 * The verification workflow's projections: every write to `verifiche` with its audit event in the
 * same transaction, idempotent (a retried activity finds its transition id and writes nothing twice).
 */
export function createVerificationActivities(deps: ActivityDeps) {
  const { db } = deps;
  const tx = <T>(codAzienda: string, actor: string, fn: (trx: Knex.Transaction) => Promise<T>) => withTenant(db, { codAzienda, actor }, fn);
  return {
    /** The row's state and deadline, as written by the transaction that opened it. */
    async readVerificationDeadline(p: Ref): Promise<VerificationDeadline> {
      return tx(p.codAzienda, 'system', async (trx) => {
        const row = await trx('verifiche').where({ cod_azienda: p.codAzienda, id: p.verificaId }).first('stato', 'scade_il');
        if (!row) throw fail(VERIFICATION_FAILURES.notFound, `verification ${p.verificaId} not found`);
        return { stato: row.stato, scadeIl: iso(row.scade_il) };
      });
    },

    /** A relied-on document changed: the deadline computed again and, when it moved, written with its audit event. */
    async recomputeVerificationDeadline(p: Ref): Promise<VerificationDeadline> {
      return tx(p.codAzienda, 'system', async (trx) => {
        const row = await lockRow(trx, p);
        if (row.stato !== 'pending' && row.stato !== 'in_progress') return { stato: row.stato, scadeIl: iso(row.scade_il) };
        const d = await computeDeadline(trx, p.codAzienda, row.id, new Date(row.created_at));
        if (iso(row.scade_il) !== d.scadeIl.toISOString()) {
          await trx('verifiche').where({ id: row.id }).update({ scade_il: d.scadeIl, updated_at: new Date() });
          await appendAudit(trx, {
            codAzienda: p.codAzienda, actor: 'system', action: 'verifica.scadenza', entityType: 'verifica', entityId: row.id,
            data: { cod_verifica: row.cod_verifica, da: iso(row.scade_il), a: d.scadeIl.toISOString(), scadenza: d.motivo },
          });
        }
        return { stato: row.stato, scadeIl: d.scadeIl.toISOString() };
      });
    },

    /**
     * One transition: the row and its audit event, once. A KYB approval is refused while a check
     * is pending or failed (the checks' edits lock the same row, so none slips in between).
     */
    async projectVerificationTransition(p: VerificationProjection): Promise<Row> {
      return tx(p.codAzienda, p.actor.username, async (trx) => {
        const row = await lockRow(trx, p);
        if (await writtenEvent(trx, p)) return row;
        if (row.stato !== p.from) {
          throw fail(VERIFICATION_FAILURES.stale, `verification ${row.cod_verifica} is ${row.stato}, not ${p.from}`, { state: row.stato, action: p.action, allowed_actions: [] });
        }
        if (p.action === 'approve' && row.tipo === 'kyb') {
          const open: OpenCheck[] = await trx('verifiche_checks').where({ verifica_id: row.id }).whereIn('stato', ['pending', 'failed'])
            .orderBy([{ column: 'created_at' }, { column: 'cod_check' }]).select('cod_check', 'tipo', 'stato');
          if (open.length) {
            const allowed = allowedActions(verificationMachine, row.stato, p.actor).filter((a) => a !== 'approve' && a !== 'expire');
            throw fail(VERIFICATION_FAILURES.checksOpen, `KYB ${row.cod_verifica}: ${open.length} check(s) pending or failed`, { state: row.stato, action: p.action, allowed_actions: allowed, checks: open });
          }
        }
        const now = new Date();
        const [record] = await trx('verifiche').where({ id: row.id }).update({ stato: p.to, ...patchOf(p, now), updated_at: now }).returning('*');
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: `verifica.${p.action}`, entityType: 'verifica', entityId: row.id,
          data: {
            from: p.from, to: p.to, transition_id: p.transitionId, cod_verifica: row.cod_verifica,
            ...(p.motivo ? { reason: p.motivo } : {}), ...(p.action === 'expire' ? { scade_il: iso(row.scade_il) } : {}),
          },
        });
        return record as Row;
      });
    },
  };
}
