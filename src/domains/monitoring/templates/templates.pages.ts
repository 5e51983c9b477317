import { withTenant } from '../../../db/tenant';
import { hasRole, tenantOf } from '../../../http/auth';
import { HttpError, notFound, ValidationError } from '../../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../../http/render';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { RULE_EDITORS } from '../monitoring.access';
import { subIndice } from '../monitoring.indicators';
import { AMBITO_LABELS } from '../monitoring.labels';
import { createRule } from '../rules/rules.commands';
import { ruleActor } from '../rules/rules.routes';
import { findModello } from './templates.catalog';
import { ruleInputOf } from './templates.install';
import { templatesOfTenant } from './templates.repo';

/**
 * /monitoraggio/modelli: the standard templates with their typology, description and indicators;
 * "Abilita" makes a draft of the tenant's rule from one and opens it (backtest and release from there).
 */
export const registerTemplatePages: RegisterRoutes = (router, { deps, views }) => {
  const tx = <T>(ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

  router.get('/monitoraggio/modelli', staff(STAFF_READ), async (ctx) => {
    const items = await tx(ctx, (trx) => templatesOfTenant(trx, tenantOf(ctx)));
    const modelli = items.map((m) => ({
      ...m, indicatori_testi: m.indicatori.map((codice) => ({ codice, testo: subIndice(codice)?.testo ?? '' })),
    }));
    render(ctx, views, 'monitoraggio/modelli/list.njk', { modelli, labels: { ambito: AMBITO_LABELS }, canEdit: hasRole(ctx.state.user, RULE_EDITORS) });
  });

  router.post('/monitoraggio/modelli/:codice/abilita', staff(RULE_EDITORS), async (ctx) => {
    const m = findModello(ctx.params.codice!);
    if (!m) throw notFound('Modello');
    try {
      const { rule } = await tx(ctx, (trx) => createRule(trx, tenantOf(ctx), ruleActor(ctx), ruleInputOf(m)));
      redirectWithFlash(ctx, `/monitoraggio/regole/${rule.id}`, 'success', `Modello abilitato: la regola «${rule.nome}» è una bozza. Verificala con il backtest prima di metterla in vigore.`);
    } catch (err) {
      if (err instanceof ValidationError || (err instanceof HttpError && err.status < 500 && err.status !== 404)) {
        const detail = err instanceof ValidationError ? err.errors[0]?.message : err.detail;
        return redirectWithFlash(ctx, '/monitoraggio/modelli', 'danger', detail ?? err.title);
      }
      throw err;
    }
  });
};
