import { ApplicationFailure } from '@temporalio/activity';
import type { Knex } from 'knex';
import { withTenant } from '../../src/db/tenant';
import { HttpError } from '../../src/http/errors';
import { appendAudit } from '../../src/domains/audit';
import { activateRuleVersion } from '../../src/domains/monitoring/rules/rules.commands';
import { computeGates } from '../../src/domains/monitoring/release/release.gates';
import { ruleVersionData } from '../../src/domains/monitoring/runs/runs.backtest';
import { versionHash } from '../../src/domains/monitoring/evaluation/rule-set';
import type { MachineActor } from '../../workflows/lib/machine';
import { RELEASE_FAILURES, type ReleaseRecord } from '../../workflows/monitoring-release/monitoring-release.contract';
import type { ActivityDeps } from '../deps';

/**
 * The release's projections (idempotent: a retried one finds the row as its first attempt left it,
 * or writes it): the request, the approval (gates checked and the draft put in force in one
 * transaction, so a draft is never in force without its gates having passed at that moment), the
 * refusal. Each with its audit event.
 */
export function createMonitoringReleaseActivities(deps: ActivityDeps) {
  const tx = <T>(codAzienda: string, actor: string, fn: (trx: Knex.Transaction) => Promise<T>) => withTenant(deps.db, { codAzienda, actor }, fn);
  const row = (trx: Knex.Transaction, codAzienda: string, id: string) =>
    trx('monitoring_rilasci').where({ cod_azienda: codAzienda, id }).first() as Promise<ReleaseRecord | undefined>;
  const notADraft = (stato: string) => ApplicationFailure.create({
    type: RELEASE_FAILURES.notADraft, nonRetryable: true, message: `La versione non è una bozza (è ${stato}): non c'è nulla da mettere in vigore`, details: [{ stato }],
  });

  return {
    async requestReleaseProjection(p: { codAzienda: string; versionId: string; actor: MachineActor; motivazione: string | null; workflowId: string }): Promise<ReleaseRecord> {
      return tx(p.codAzienda, p.actor.username, async (trx) => {
        const draft = await ruleVersionData(trx, p.codAzienda, p.versionId);
        if (!draft) throw ApplicationFailure.create({ type: RELEASE_FAILURES.notADraft, nonRetryable: true, message: 'Versione della regola inesistente', details: [{ stato: 'inesistente' }] });
        if (draft.stato !== 'bozza') throw notADraft(draft.stato);
        const now = new Date();
        const values = {
          cod_azienda: p.codAzienda, regola_id: draft.regola_id, stato: 'in_attesa', versione_hash: versionHash(draft), richiesto_da: p.actor.id,
          richiesto_da_username: p.actor.username, richiesto_at: now, motivazione: p.motivazione, deciso_da: null, deciso_at: null, motivazione_decisione: null,
          cancelli: null, workflow_id: p.workflowId, updated_at: now,
        };
        await trx('monitoring_rilasci').insert({ id: p.versionId, ...values }).onConflict('id').merge();
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: 'monitoring.release.request', entityType: 'monitoring_rule', entityId: draft.regola_id,
          data: { versione: draft.versione, versione_id: p.versionId, to: 'in_attesa', ...(p.motivazione ? { motivazione: p.motivazione } : {}) },
        });
        return (await row(trx, p.codAzienda, p.versionId))!;
      });
    },

    async approveReleaseProjection(p: { codAzienda: string; versionId: string; actor: MachineActor; motivazione: string | null }): Promise<ReleaseRecord> {
      return tx(p.codAzienda, p.actor.username, async (trx) => {
        const current = await row(trx, p.codAzienda, p.versionId);
        // A retried approval that committed: the row already says so.
        if (current?.stato === 'attivata' && current.deciso_da === p.actor.id) return current;
        const gates = await computeGates(trx, p.codAzienda, p.versionId);
        if (!gates) throw notADraft('inesistente');
        if (!gates.pronta) {
          throw ApplicationFailure.create({
            type: RELEASE_FAILURES.gatesNotMet, nonRetryable: true, details: [gates],
            message: `I cancelli di rilascio non sono superati: ${[gates.backtest, gates.volume].filter((g) => !g.ok).map((g) => g.motivo).join('; ')}`,
          });
        }
        try {
          await activateRuleVersion(trx, { codAzienda: p.codAzienda, versionId: p.versionId, actor: { id: p.actor.id, username: p.actor.username }, motivazione: p.motivazione ?? undefined });
        } catch (err) {
          if (err instanceof HttpError && err.status === 409) throw notADraft(String(err.extra.stato ?? 'non bozza'));
          throw err;
        }
        const now = new Date();
        const cancelli = { ...gates, approvazione: { ...gates.approvazione, ok: true, stato: 'attivata' } };
        await trx('monitoring_rilasci').where({ cod_azienda: p.codAzienda, id: p.versionId })
          .update({ stato: 'attivata', deciso_da: p.actor.id, deciso_at: now, motivazione_decisione: p.motivazione, cancelli: JSON.stringify(cancelli), updated_at: now });
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: 'monitoring.release.approve', entityType: 'monitoring_rule', entityId: gates.regola_id,
          data: {
            versione: gates.versione, versione_id: p.versionId, from: 'in_attesa', to: 'attivata', richiesto_da: current?.richiesto_da_username,
            backtest: gates.backtest.esecuzione_id, alert_bozza: gates.volume.alert_bozza, alert_attiva: gates.volume.alert_attiva,
            ...(p.motivazione ? { motivazione: p.motivazione } : {}),
          },
        });
        return (await row(trx, p.codAzienda, p.versionId))!;
      });
    },

    async rejectReleaseProjection(p: { codAzienda: string; versionId: string; actor: MachineActor; motivazione: string }): Promise<ReleaseRecord> {
      return tx(p.codAzienda, p.actor.username, async (trx) => {
        const current = await row(trx, p.codAzienda, p.versionId);
        if (current?.stato === 'respinta' && current.deciso_da === p.actor.id) return current;
        const gates = await computeGates(trx, p.codAzienda, p.versionId);
        const now = new Date();
        await trx('monitoring_rilasci').where({ cod_azienda: p.codAzienda, id: p.versionId })
          .update({ stato: 'respinta', deciso_da: p.actor.id, deciso_at: now, motivazione_decisione: p.motivazione, cancelli: gates ? JSON.stringify(gates) : null, updated_at: now });
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: 'monitoring.release.reject', entityType: 'monitoring_rule', entityId: current?.regola_id ?? p.versionId,
          data: { versione_id: p.versionId, from: 'in_attesa', to: 'respinta', motivazione: p.motivazione },
        });
        return (await row(trx, p.codAzienda, p.versionId))!;
      });
    },
  };
}
