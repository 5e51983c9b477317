import { Context } from '@temporalio/activity';
import { withPlatform, withTenant } from '../../src/db/tenant';
import { cancelCddReview, initiateCdd, pendingCddTriggers, reviewsWithoutRelationship } from '../../src/domains/cdd';
import type { CddSweepTenantResult } from '../../workflows/cdd/cdd-sweep.contract';
import type { ActivityDeps } from '../deps';
import { HttpError } from '../../src/http/errors';

/** The platform acting on a tenant's behalf when an event opens a task. */
const SYSTEM = { id: 'system', username: 'system', roles: ['co'] };

/** The CDD sweep's steps: the tenants to look at, then one tenant's events turned into tasks. */
export function createCddSweepActivities(deps: ActivityDeps) {
  return {
    async listCddSweepTenants(): Promise<string[]> {
      const rows: { cod_azienda: string }[] = await withPlatform(deps.platformDb, 'system', (trx) => trx('aziende').where({ attiva: true }).orderBy('cod_azienda').select('cod_azienda'));
      return rows.map((r) => r.cod_azienda);
    },

    async sweepCddTenant(p: { codAzienda: string }): Promise<CddSweepTenantResult> {
      const ctx = Context.current();
      const triggers = await withTenant(deps.db, { codAzienda: p.codAzienda, actor: 'system' }, (trx) => pendingCddTriggers(trx, p.codAzienda));
      const result: CddSweepTenantResult = { codAzienda: p.codAzienda, created: 0, joined: 0, failed: 0, reviewsCancelled: 0 };
      const pc = { db: deps.db, client: ctx.client, taskQueue: ctx.info.taskQueue };
      for (const t of triggers) {
        ctx.heartbeat(t.chiave);
        try {
          const r = await initiateCdd(pc, { codAzienda: p.codAzienda, actor: SYSTEM, ...t });
          if (r.created) result.created++; else result.joined++;
        } catch (err) {
          // One customer's failure (a record removed meanwhile) must not hold the others; the key is not recorded, so the next run retries it.
          result.failed++;
          deps.logger.warn({ err, chiave: t.chiave, codAzienda: p.codAzienda }, 'cdd sweep: event not turned into a task');
        }
      }
      // Reviews left without a relationship to review end through their own workflows (row, audit event).
      const ended = await withTenant(deps.db, { codAzienda: p.codAzienda, actor: 'system' }, (trx) => reviewsWithoutRelationship(trx));
      for (const r of ended) {
        ctx.heartbeat(`review:${r.id}`);
        try {
          await cancelCddReview({ db: deps.db, client: ctx.client }, { codAzienda: p.codAzienda, reviewId: r.id, actor: SYSTEM, input: { motivazione: r.motivazione } });
          result.reviewsCancelled++;
        } catch (err) {
          // Moved on since the read (fell due, cancelled by hand): nothing left to cancel. Anything else: the next sweep retries.
          if (err instanceof HttpError && err.status === 409) continue;
          result.failed++;
          deps.logger.warn({ err, reviewId: r.id, codAzienda: p.codAzienda }, 'cdd sweep: review of an ended relationship not cancelled');
        }
      }
      return result;
    },
  };
}
