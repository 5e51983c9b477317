import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { HttpError, ValidationError } from '../../../http/errors';
import { render, type Ctx } from '../../../http/render';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { RULE_EDITORS } from '../monitoring.access';
import { ESITO_DECISIONE_LABELS, STATO_RUN_LABELS } from '../evaluation/evaluation.labels';
import { engineHealth } from './engine.health';
import { runPilot } from './engine.pilot';
import { reconcile } from './engine.reconcile';
import { replayDeadLetter } from './sync.commands';
import { listDeadLetters } from './sync.repo';

const BASE = '/monitoraggio/motore';

/** What an action on the page produced, shown above the sections; absent on a plain visit. */
interface Outcome {
  replay?: Awaited<ReturnType<typeof replayDeadLetter>>;
  replayError?: { codSync: string; status: number; message: string };
  confronto?: Awaited<ReturnType<typeof reconcile>>;
  pilota?: Awaited<ReturnType<typeof runPilot>>;
  pilotaError?: { status: number; message: string };
}

/**
 * /monitoraggio/motore: the decision engine's page for the operator (docs/monitoring.md, "The
 * engine's page"), over the same services as the /api/engine/* routes: its health (workers on
 * its queue, sync lag per kind, last daily batch), the sync statistics, the dead letters with
 * their replay, the reconciliation of the copy and the pilot round trip. Reading: all staff; the
 * actions (replay, reconcile, pilot): compliance officer and admin, as on the API.
 */
export const registerEnginePages: RegisterRoutes = (router, { deps, views }) => {
  const actor = (ctx: Ctx) => ctx.state.user!.username;
  const canAct = (ctx: Ctx) => ctx.state.user!.ruoli.some((r) => RULE_EDITORS.includes(r));

  const page = async (ctx: Ctx, outcome: Outcome = {}, status = 200) => {
    const codAzienda = tenantOf(ctx);
    const [health, deadLetters] = await Promise.all([
      engineHealth(deps, codAzienda, actor(ctx)),
      withTenant(deps.db, { codAzienda, actor: actor(ctx) }, (trx) => listDeadLetters(trx, codAzienda, { limit: 50 })),
    ]);
    render(ctx, views, 'monitoring/engine.njk', { health, deadLetters, canAct: canAct(ctx), outcome, labels: { run: STATO_RUN_LABELS, esito: ESITO_DECISIONE_LABELS } }, { status });
  };

  router.get(BASE, staff(STAFF_READ), (ctx) => page(ctx));

  router.post(`${BASE}/riesegui/:codSync`, staff(RULE_EDITORS), async (ctx) => {
    const codSync = ctx.params.codSync!;
    try {
      return await page(ctx, { replay: await replayDeadLetter(deps.db, tenantOf(ctx), actor(ctx), codSync) });
    } catch (err) {
      // Already replayed (or running, or never dead): the page says why with a 409; another tenant's: the 404 page.
      if (err instanceof HttpError && err.status === 409) return page(ctx, { replayError: { codSync, status: 409, message: err.detail ?? err.message } }, 409);
      throw err;
    }
  });

  // A reconciliation reads every record of the copy and of the platform: asked for, not on every visit.
  router.post(`${BASE}/confronta`, staff(RULE_EDITORS), async (ctx) => {
    await page(ctx, { confronto: await reconcile(deps.db, tenantOf(ctx), actor(ctx), { limite: 50 }) });
  });

  router.post(`${BASE}/pilota`, staff(RULE_EDITORS), async (ctx) => {
    try {
      return await page(ctx, { pilota: await runPilot(deps, tenantOf(ctx), actor(ctx), {}) });
    } catch (err) {
      // No engine worker answering (503) or no customer to try with (422): said on the page.
      if (err instanceof ValidationError) return page(ctx, { pilotaError: { status: 422, message: err.errors.map((e) => e.message).join('; ') } }, 422);
      if (err instanceof HttpError && (err.status === 503 || err.status === 409)) return page(ctx, { pilotaError: { status: err.status, message: err.detail ?? err.message } }, err.status);
      throw err;
    }
  });
};
