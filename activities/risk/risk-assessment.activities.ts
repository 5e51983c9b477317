import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import { withTenant } from '../../src/db/tenant';
import { HttpError } from '../../src/http/errors';
import { appendAudit } from '../../src/domains/audit';
import { onRiskClassChanged } from '../../src/domains/cdd';
import { nextCode, setRiskClass, todayInRome } from '../../src/domains/records';
import { activeRuleSet, classOrdinal, recordScores, scoreCustomers, thresholds } from '../../src/domains/risk';
import {
  classAtLeast, normaliseAssessmentRow, RISK_ASSESSMENT_FAILURES, riskAssessmentSupersededSignal, riskAssessmentWorkflowId,
  type RiskAssessmentCreation, type RiskAssessmentProjection, type RiskAssessmentRecord, type RiskAssessmentWritten, type RiskClass,
  type RiskMotivo, type RiskReleaseEffects,
} from '../../workflows/risk/risk-assessment.contract';
import type { ActivityDeps } from '../deps';

const fail = (type: string, message: string) => ApplicationFailure.create({ type, message, nonRetryable: true });

/** jsonb values go through JSON: the pg driver would turn a JS array into a PostgreSQL array. */
const json = (v: unknown) => JSON.stringify(v ?? null);

/** rischio_storico.origine for an assessment's reason. */
const ORIGINE: Record<RiskMotivo, 'manuale' | 'evento' | 'portafoglio' | 'onboarding' | 'scadenza_override'> = {
  manuale: 'manuale', onboarding: 'onboarding', evento_screening: 'evento', evento_anagrafe: 'evento', evento_cdd: 'evento',
  evento_monitoraggio: 'evento', portafoglio: 'portafoglio', scadenza_override: 'scadenza_override',
};

type Row = RiskAssessmentRecord;

async function lockRow(trx: Knex.Transaction, id: string): Promise<Row> {
  const row = await trx('rischio_valutazioni').where({ id }).forUpdate().first();
  if (!row) throw fail(RISK_ASSESSMENT_FAILURES.notFound, `assessment ${id} not found`);
  return normaliseAssessmentRow(row as Row);
}

/** The audit event of this transition, when it was already written (its data carries the transition id). */
async function writtenEvent(trx: Knex.Transaction, p: RiskAssessmentProjection): Promise<{ data: Record<string, unknown> } | undefined> {
  return trx('audit_events').where({ cod_azienda: p.codAzienda, entity_type: 'risk_assessment', entity_id: p.assessmentId })
    .whereRaw("data->>'transition_id' = ?", [p.transitionId]).first('data');
}

/** The class the customer has now (records area), the one a new calculation is compared with. */
async function classInForce(trx: Knex.Transaction, codAnagrafe: string): Promise<RiskClass | null> {
  const c = await trx('anagrafe').where({ cod_anagrafe: codAnagrafe }).first('classe_rischio');
  return (c?.classe_rischio ?? null) as RiskClass | null;
}

/** The engine, for this one customer with the tenant's active rule set: what the row keeps to explain itself. */
async function calculate(trx: Knex.Transaction, p: RiskAssessmentProjection, row: Row, now: Date) {
  const oggi = todayInRome();
  const versione = await activeRuleSet(trx, p.codAzienda);
  const soglie = await thresholds(trx, p.codAzienda);
  const scored = (await scoreCustomers(trx, p.codAzienda, [row.cod_anagrafe], versione, oggi)).get(row.cod_anagrafe);
  if (!scored) throw fail(RISK_ASSESSMENT_FAILURES.customerNotFound, `customer ${row.cod_anagrafe} not found`);
  const { punteggio: s, profilo } = scored;
  const precedente = await classInForce(trx, row.cod_anagrafe);
  await recordScores(trx, p.codAzienda, [{ cod_anagrafe: row.cod_anagrafe, punteggio: s, origine: ORIGINE[row.motivo], valutazione_id: row.id }]);
  const patch = {
    versione_id: s.versione.id, punteggio: s.punteggio, classe_calcolata: s.classe, classe_effettiva: null, classe_precedente: precedente,
    pavimento: json(s.pavimento), contributi: json(s.contributi), probabilita: s.probabilita, impatto: s.impatto,
    profilo: json({
      dati: profilo, aggregati: s.aggregati, oggi, classe_da_punteggio: s.classe_da_punteggio,
      versione: s.versione, soglie: soglie.map((t) => ({ classe: t.classe, punteggio_min: t.punteggio_min, livello_cdd: t.livello_cdd, revisione_mesi: t.revisione_mesi })),
    }),
    updated_at: now,
  };
  const audit = { punteggio: s.punteggio, classe: s.classe, classe_precedente: precedente, versione: s.versione.versione, ...(s.pavimento ? { pavimento: s.pavimento } : {}) };
  return { patch, audit, autoRelease: classAtLeast(s.classe, precedente) };
}

/**
 * A release: the customer's class and score (records area), the class in force of the risk
 * views (rischio_correnti) and the archive of the assessments it supersedes, in one transaction.
 * The CDD consequences and the superseded workflows follow after the commit (effects).
 */
async function release(trx: Knex.Transaction, p: RiskAssessmentProjection, row: Row, now: Date) {
  const classe = (row.stato === 'overridden' && row.override_classe ? row.override_classe : row.classe_calcolata) as RiskClass;
  const set = await setRiskClass(trx, {
    codAzienda: p.codAzienda, codAnagrafe: row.cod_anagrafe, classe, punteggio: row.punteggio, actor: p.actor.username, riferimento: row.cod_valutazione,
  });
  // The matrix places the customer by the class in force: its probability follows the released class.
  await trx('rischio_correnti').where({ cod_anagrafe: row.cod_anagrafe }).update({ classe_effettiva: classe, probabilita: classOrdinal(classe), valutazione_id: row.id });
  const superseded: { id: string; cod_valutazione: string }[] = await trx('rischio_valutazioni')
    .where({ cod_anagrafe: row.cod_anagrafe }).whereNot('id', row.id).whereIn('stato', ['completed', 'released'])
    .update({ stato: 'archived', archived_by: 'system', archived_at: now, superata_da: row.id, updated_at: now }).returning(['id', 'cod_valutazione']);
  for (const s of superseded) {
    await appendAudit(trx, {
      codAzienda: p.codAzienda, actor: 'system', action: 'risk_assessment.archive', entityType: 'risk_assessment', entityId: s.id,
      data: { automatico: true, superata_da: row.id, superata_da_cod: row.cod_valutazione, to: 'archived' },
    });
  }
  const effects: RiskReleaseEffects = {
    codAzienda: p.codAzienda, assessmentId: row.id, codAnagrafe: row.cod_anagrafe, actor: p.actor, da: set.da, a: classe, superseded: superseded.map((s) => s.id),
  };
  return {
    patch: { classe_effettiva: classe, released_by: p.actor.id, released_at: now, updated_at: now },
    audit: { da: set.da, a: classe, superseded: effects.superseded, ...(p.automatico ? { automatico: true } : {}) },
    effects,
  };
}

/** What each person's transition changes on the row, besides its state. */
function patchOf(p: RiskAssessmentProjection, now: Date): { patch: Record<string, unknown>; audit: Record<string, unknown> } {
  switch (p.action) {
    case 'override': return {
      patch: {
        override_classe: p.args.classe, override_motivo: p.args.motivo, override_scadenza: p.args.scadenza || null, override_by: p.actor.id,
        override_at: now, override_confirmed_by: null, override_confirmed_at: null, override_scaduto: false, updated_at: now,
      },
      audit: { classe: p.args.classe, reason: p.args.motivo, ...(p.args.scadenza ? { scadenza: p.args.scadenza } : {}) },
    };
    case 'complete-override': return { patch: { override_confirmed_by: p.actor.id, override_confirmed_at: now, updated_at: now }, audit: {} };
    case 'archive': return { patch: { archived_by: p.actor.id, archived_at: now, updated_at: now }, audit: p.args.nota ? { note: p.args.nota } : {} };
    default: return { patch: { updated_at: now }, audit: {} };
  }
}

/**
 * The assessment workflow's projection: every write to rischio_valutazioni (and, on release,
 * to the customer and rischio_correnti) with its audit event in the same transaction,
 * idempotent so that a retried activity leaves one copy.
 */
export function createRiskAssessmentActivities(deps: ActivityDeps) {
  const { db } = deps;
  const tx = <T>(codAzienda: string, actor: string, fn: (trx: Knex.Transaction) => Promise<T>) => withTenant(db, { codAzienda, actor }, fn);
  return {
    /** The draft row with its progressive code and the audit event, once; answers the row either way. */
    async createRiskAssessmentProjection(p: RiskAssessmentCreation): Promise<Row> {
      return tx(p.codAzienda, p.actor.username, async (trx) => {
        const existing = await trx('rischio_valutazioni').where({ id: p.assessmentId }).first();
        if (existing) return normaliseAssessmentRow(existing as Row);
        const customer = await trx('anagrafe').where({ cod_anagrafe: p.data.cod_anagrafe }).first('stato');
        if (!customer) throw fail(RISK_ASSESSMENT_FAILURES.customerNotFound, `customer ${p.data.cod_anagrafe} not found`);
        if (customer.stato === 'eliminato') throw fail(RISK_ASSESSMENT_FAILURES.customerDeleted, `customer ${p.data.cod_anagrafe} was deleted`);
        const cod = await nextCode(trx, p.codAzienda, 'VAL');
        const [row] = await trx('rischio_valutazioni').insert({
          id: p.assessmentId, cod_azienda: p.codAzienda, cod_valutazione: cod, cod_anagrafe: p.data.cod_anagrafe, stato: 'draft',
          motivo: p.data.motivo, riferimento: p.data.riferimento ?? null, workflow_id: p.workflowId, created_by: p.actor.id,
        }).returning('*');
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: 'risk_assessment.create', entityType: 'risk_assessment', entityId: p.assessmentId,
          data: { cod_valutazione: cod, cod_anagrafe: p.data.cod_anagrafe, motivo: p.data.motivo, to: 'draft', workflow_id: p.workflowId, ...(p.data.riferimento ? { riferimento: p.data.riferimento } : {}) },
        });
        return normaliseAssessmentRow(row as Row);
      });
    },

    /** One transition (the calculation included): the row and the audit event, once; answers the row and what follows. */
    async projectRiskAssessmentTransition(p: RiskAssessmentProjection): Promise<RiskAssessmentWritten> {
      return tx(p.codAzienda, p.actor.username, async (trx) => {
        const row = await lockRow(trx, p.assessmentId);
        const seen = await writtenEvent(trx, p);
        if (seen) {
          // A retry of a step already written: answer what it wrote.
          const d = seen.data;
          return {
            record: row,
            ...(p.action === 'calculate' ? { autoRelease: classAtLeast(row.classe_calcolata!, row.classe_precedente) } : {}),
            ...(p.action === 'release' ? { effects: { codAzienda: p.codAzienda, assessmentId: row.id, codAnagrafe: row.cod_anagrafe, actor: p.actor, da: (d.da ?? null) as RiskClass | null, a: d.a as RiskClass, superseded: (d.superseded ?? []) as string[] } } : {}),
          };
        }
        if (row.stato !== p.from) {
          throw ApplicationFailure.create({
            type: RISK_ASSESSMENT_FAILURES.superseded, nonRetryable: true, message: `assessment ${row.cod_valutazione} is ${row.stato}, not ${p.from}`,
            details: [{ state: row.stato, action: p.action, allowed_actions: [] }],
          });
        }
        const now = new Date();
        let change: { patch: Record<string, unknown>; audit: Record<string, unknown>; autoRelease?: boolean; effects?: RiskReleaseEffects };
        if (p.action === 'calculate') change = await calculate(trx, p, row, now);
        else if (p.action === 'release') change = await release(trx, p, row, now);
        else change = patchOf(p, now);
        const [record] = await trx('rischio_valutazioni').where({ id: p.assessmentId }).update({ stato: p.to, ...change.patch }).returning('*');
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: `risk_assessment.${p.action}`, entityType: 'risk_assessment', entityId: p.assessmentId,
          data: { from: p.from, to: p.to, transition_id: p.transitionId, cod_valutazione: row.cod_valutazione, ...change.audit },
        });
        return { record: normaliseAssessmentRow(record as Row), ...(change.autoRelease !== undefined ? { autoRelease: change.autoRelease } : {}), ...(change.effects ? { effects: change.effects } : {}) };
      });
    },

    /** The released override's expiry: marked once; `inForce` false when the assessment was archived meanwhile. */
    async expireRiskOverride(p: { codAzienda: string; assessmentId: string }): Promise<{ inForce: boolean }> {
      return tx(p.codAzienda, 'system', async (trx) => {
        const row = await lockRow(trx, p.assessmentId);
        if (row.stato !== 'released') return { inForce: false };
        if (!row.override_scaduto) {
          await trx('rischio_valutazioni').where({ id: row.id }).update({ override_scaduto: true, updated_at: new Date() });
          await appendAudit(trx, {
            codAzienda: p.codAzienda, actor: 'system', action: 'risk_assessment.override_expired', entityType: 'risk_assessment', entityId: row.id,
            data: { cod_valutazione: row.cod_valutazione, classe: row.override_classe, scadenza: row.override_scadenza },
          });
        }
        return { inForce: true };
      });
    },

    /**
     * After a release committed: the superseded assessments' workflows learn they are archived,
     * and a changed class (not the first one) has its CDD consequences (a task at the level the new class calls for;
     * the assessment id keys it, so a retry opens nothing twice).
     */
    async applyRiskReleaseEffects(e: RiskReleaseEffects): Promise<void> {
      const ctx = Context.current();
      for (const id of e.superseded) {
        try {
          await ctx.client.workflow.getHandle(riskAssessmentWorkflowId(e.codAzienda, id)).signal(riskAssessmentSupersededSignal, { by: e.assessmentId });
        } catch (err) {
          // Its workflow already ended (archived by hand, or before the workflows kept assessments).
          if (!(err instanceof WorkflowNotFoundError)) throw err;
        }
      }
      // The first class a customer gets is no change of class: its due diligence was set where it came from (onboarding, import).
      if (e.da === null || e.da === e.a) return;
      try {
        await onRiskClassChanged({ db, client: ctx.client, taskQueue: ctx.info.taskQueue }, {
          codAzienda: e.codAzienda, actor: e.actor, codAnagrafe: e.codAnagrafe, da: e.da, a: e.a, riferimento: e.assessmentId,
        });
      } catch (err) {
        // A customer deleted or gone meanwhile has no due diligence to open: nothing to retry.
        if (err instanceof HttpError && (err.status === 404 || err.status === 409)) {
          deps.logger.warn({ err, codAnagrafe: e.codAnagrafe }, 'risk release: CDD consequences not applied');
          return;
        }
        throw err;
      }
    },
  };
}
