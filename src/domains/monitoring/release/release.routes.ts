import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { notFound } from '../../../http/errors';
import type { Ctx } from '../../../http/render';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { rolesFor } from '../../../kit/process';
import { STAFF_READ } from '../../../kit/roles';
import { RELEASE_ROLES, releaseMachine } from '../../../../workflows/monitoring-release/monitoring-release.machine';
import { findRule, ruleVersions } from '../rules/rules.repo';
import { startBacktest } from '../runs/runs.commands';
import { runRecord, startBacktestSchema } from '../runs/runs.schemas';
import { decideRelease, releaseView, requestRelease } from './release.commands';
import { allDraftGates } from './release.gates';
import { approveReleaseSchema, rejectReleaseSchema, releaseGatesResponse, releaseViewResponse, requestReleaseSchema } from './release.schemas';

const tag = 'Monitoraggio: messa in vigore delle regole';

/**
 * A draft's way into force: its backtest, the release request, a second person's approval (or a
 * refusal), and every draft's gates. There is no other way to put a version in force: PUT
 * /api/monitoring/rules/:id with `azione: attiva` asks for the release too.
 */
export const registerReleaseRoutes: RegisterRoutes = (router, { deps }) => {
  const user = (ctx: Ctx) => ctx.state.user!;

  router.api({
    method: 'GET', path: '/api/engine/release-gates', summary: 'I cancelli di rilascio di ogni bozza: backtest sulla bozza così com\'è, volume di alert entro la tolleranza, approvazione di una seconda persona',
    tag: 'Motore decisionale', access: staff(STAFF_READ), response: releaseGatesResponse,
    handler: async (ctx) => ({ items: await withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: user(ctx).username }, (trx) => allDraftGates(trx, tenantOf(ctx))) }),
  });

  router.api({
    method: 'POST', path: '/api/monitoring/rules/:id/backtest',
    summary: 'Backtest della bozza sullo storico (dal, al: per default l\'ultimo anno fino a ieri), a confronto con la versione in vigore', tag,
    access: staff([...RELEASE_ROLES]), body: startBacktestSchema, response: runRecord, status: 202,
    handler: async (ctx, { body, params }) => {
      const run = await startBacktest(deps, { codAzienda: tenantOf(ctx), actor: user(ctx).username, rule: params.id!, ...body });
      ctx.set('Location', `/api/monitoring/esecuzioni/${run.id}`);
      return run;
    },
  });

  router.api({
    method: 'GET', path: '/api/monitoring/rules/:id/rilascio', summary: 'La messa in vigore della bozza della regola: la richiesta e i suoi cancelli', tag,
    access: staff(STAFF_READ), response: releaseViewResponse,
    handler: async (ctx, { params }) => {
      const codAzienda = tenantOf(ctx);
      const draft = await withTenant(deps.db, { codAzienda, actor: user(ctx).username }, async (trx) => {
        const rule = await findRule(trx, codAzienda, params.id!);
        if (!rule) throw notFound('Regola');
        return (await ruleVersions(trx, rule.id)).find((v) => v.stato === 'bozza');
      });
      if (!draft) throw notFound('Bozza della regola');
      return releaseView(deps, codAzienda, user(ctx).username, draft.id);
    },
  });

  router.api({
    method: 'POST', path: '/api/monitoring/rules/:id/rilascio', summary: 'Chiede la messa in vigore della bozza: la approva una seconda persona, se i cancelli sono superati', tag,
    access: staff([...RELEASE_ROLES]), body: requestReleaseSchema, response: releaseViewResponse, status: 202,
    handler: (ctx, { body, params }) => requestRelease(deps, tenantOf(ctx), user(ctx), params.id!, body.motivazione),
  });

  router.api({
    method: 'POST', path: '/api/monitoring/rules/:id/rilascio/approva',
    summary: 'Approva la messa in vigore (una persona diversa da chi l\'ha chiesta): i cancelli sono verificati e la bozza entra in vigore, o 409 con i cancelli', tag,
    access: staff(rolesFor(releaseMachine, 'approva')), body: approveReleaseSchema, response: releaseViewResponse,
    handler: (ctx, { body, params }) => decideRelease(deps, tenantOf(ctx), user(ctx), params.id!, 'approva', body.motivazione),
  });

  router.api({
    method: 'POST', path: '/api/monitoring/rules/:id/rilascio/respingi', summary: 'Respinge (o ritira) la richiesta di messa in vigore, con il motivo', tag,
    access: staff(rolesFor(releaseMachine, 'respingi')), body: rejectReleaseSchema, response: releaseViewResponse,
    handler: (ctx, { body, params }) => decideRelease(deps, tenantOf(ctx), user(ctx), params.id!, 'respingi', body.motivazione),
  });
};
