import { Context } from '@temporalio/activity';
import {
  finishTenantRescreen, planRescreen, rescreenTenantPage,
} from '../../src/domains/screening/screening.rescreen';
import { RESCREEN_PAGE_SIZE, type RescreenPageResult, type ScreeningRescreenResult } from '../../workflows/screening/screening.contract';
import type { ActivityDeps } from '../deps';

/** The re-screen after a list import: planning, one page of one tenant, a tenant's close. */
export function createScreeningRescreenActivities({ db, platformDb }: ActivityDeps) {
  const pageHooks = () => {
    const ctx = Context.current();
    return { progress: (d: { after: string }) => ctx.heartbeat(d), signal: ctx.cancellationSignal };
  };
  return {
    /** Names the tenants to re-screen and records a progress row for each. */
    planRescreen: (p: { runId: string; versionIds: number[] }): Promise<string[]> => planRescreen(platformDb, p),

    rescreenPage: (p: { runId: string; codAzienda: string; versionIds: number[]; after: string | null; pageSize: number }): Promise<RescreenPageResult> =>
      rescreenTenantPage(db, p, pageHooks()),

    finishRescreen: (p: { runId: string; codAzienda: string; status: 'completed' | 'failed'; error?: string }): Promise<ScreeningRescreenResult> =>
      finishTenantRescreen(db, p),

    /**
     * The re-screen as import workflows started before per-tenant child workflows call it:
     * the same pages, one after the other, inside this one activity (still no long transaction).
     */
    async rescreenAfterImport(p: { runId: string; versionIds: number[] }): Promise<{ subjects: number; matchesCreated: number }> {
      let subjects = 0, matchesCreated = 0;
      for (const codAzienda of await planRescreen(platformDb, p)) {
        for (let after: string | null = null, done = false; !done;) {
          const page = await rescreenTenantPage(db, { ...p, codAzienda, after, pageSize: RESCREEN_PAGE_SIZE }, pageHooks());
          ({ done } = page);
          after = page.lastId;
        }
        const r = await finishTenantRescreen(db, { runId: p.runId, codAzienda, status: 'completed' });
        subjects += r.screened;
        matchesCreated += r.matchesCreated;
      }
      return { subjects, matchesCreated };
    },
  };
}
