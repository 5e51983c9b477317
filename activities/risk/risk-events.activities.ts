import { Context } from '@temporalio/activity';
import type { Knex } from 'knex';
import { withPlatform, withTenant } from '../../src/db/tenant';
import { HttpError } from '../../src/http/errors';
import { markRiskEvents, pendingRiskEvents, startAssessment, uuidFromKey } from '../../src/domains/risk';
import { RISK_SYSTEM_ACTOR } from '../../workflows/risk/risk-assessment.contract';
import type { RiskEventsTenantResult } from '../../workflows/risk/risk-events.contract';
import type { ActivityDeps } from '../deps';

/** The risk events sweep's steps: the tenants to look at, then one tenant's events turned into assessments. */
export function createRiskEventsActivities(deps: ActivityDeps) {
  return {
    async listRiskEventTenants(): Promise<string[]> {
      const rows: { cod_azienda: string }[] = await withPlatform(deps.platformDb, 'system', (trx) => trx('aziende').where({ attiva: true }).orderBy('cod_azienda').select('cod_azienda'));
      return rows.map((r) => r.cod_azienda);
    },

    async sweepRiskEvents(p: { codAzienda: string }): Promise<RiskEventsTenantResult> {
      const ctx = Context.current();
      const tx = <T>(fn: (trx: Knex.Transaction) => Promise<T>) => withTenant(deps.db, { codAzienda: p.codAzienda, actor: 'system' }, fn);
      const { byCustomer, deleted } = await tx((trx) => pendingRiskEvents(trx));
      await tx((trx) => markRiskEvents(trx, p.codAzienda, deleted, null));
      const result: RiskEventsTenantResult = { codAzienda: p.codAzienda, started: 0, events: 0, failed: 0 };
      const pc = { db: deps.db, client: ctx.client, taskQueue: ctx.info.taskQueue };
      for (const [codAnagrafe, events] of byCustomer) {
        ctx.heartbeat(codAnagrafe);
        const first = events[0]!;
        // The first event's key names the assessment: a retried run starts the same one.
        const assessmentId = uuidFromKey(`risk-event:${p.codAzienda}:${first.chiave}`);
        try {
          await startAssessment(pc, { codAzienda: p.codAzienda, actor: RISK_SYSTEM_ACTOR, codAnagrafe, motivo: first.motivo, riferimento: first.riferimento, assessmentId });
          await tx((trx) => markRiskEvents(trx, p.codAzienda, events, assessmentId));
          result.started++;
          result.events += events.length;
        } catch (err) {
          // A customer deleted meanwhile: nothing to assess, the events are done with. Anything else: the next run retries.
          if (err instanceof HttpError && err.status === 409) {
            await tx((trx) => markRiskEvents(trx, p.codAzienda, events, null));
            continue;
          }
          result.failed++;
          deps.logger.warn({ err, codAnagrafe, codAzienda: p.codAzienda }, 'risk events sweep: assessment not started');
        }
      }
      return result;
    },
  };
}
