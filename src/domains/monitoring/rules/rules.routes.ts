import { withTenant } from '../../../db/tenant';
import type { Deps } from '../../../deps';
import { tenantOf } from '../../../http/auth';
import { forbidden, notFound } from '../../../http/errors';
import type { Ctx } from '../../../http/render';
import { hasRole } from '../../../http/auth';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { RULE_EDITORS, RULE_RETIRERS } from '../monitoring.access';
import { requestRelease } from '../release/release.commands';
import { createRule, discardDraft, retireRule, updateRuleDraft, type RuleActor } from './rules.commands';
import { listRules, ruleDetail } from './rules.repo';
import { createRuleBody } from '../templates/templates.schemas';
import { listRulesQuery, ruleDetailResponse, ruleListResponse, updateRuleSchema, type UpdateRuleInput } from './rules.schemas';

const tag = 'Monitoraggio';

export const ruleActor = (ctx: Ctx): RuleActor => ({ id: ctx.state.user!.cod_utente, username: ctx.state.user!.username });

const tx = <T>(deps: Deps, ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) =>
  withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

/** One rule with its versions, as the API answers it. */
export async function readRule(deps: Deps, ctx: Ctx, idOrCode: string) {
  const r = await tx(deps, ctx, (trx) => ruleDetail(trx, tenantOf(ctx), idOrCode));
  if (!r) throw notFound('Regola');
  return r;
}

/** A change of a rule, by kind: edit the draft, retire the version in force, discard the draft. */
export async function changeRule(deps: Deps, ctx: Ctx, idOrCode: string, body: UpdateRuleInput) {
  const codAzienda = tenantOf(ctx);
  if (body.azione === 'ritira' && !hasRole(ctx.state.user, RULE_RETIRERS)) throw forbidden('Solo il responsabile antiriciclaggio ritira una regola');
  // No direct activation: the draft's release workflow (gates, a second person's approval).
  if (body.azione === 'attiva') return (await requestRelease(deps, codAzienda, ctx.state.user!, idOrCode, body.motivazione), readRule(deps, ctx, idOrCode));
  const rule = await tx(deps, ctx, async (trx) => {
    if (body.azione === 'ritira') return retireRule(trx, codAzienda, ruleActor(ctx), idOrCode, body.motivazione!);
    if (body.azione === 'scarta_bozza') return discardDraft(trx, codAzienda, ruleActor(ctx), idOrCode);
    return (await updateRuleDraft(trx, codAzienda, ruleActor(ctx), idOrCode, body)).rule;
  });
  return readRule(deps, ctx, rule.id);
}

/** JSON API of the monitoring rules: rules as data, versioned (docs/monitoring.md). */
export const registerRuleRoutes: RegisterRoutes = (router, { deps }) => {
  router.api({
    method: 'GET', path: '/api/monitoring/rules', summary: 'Elenco delle regole di monitoraggio con la versione in vigore e la bozza', tag,
    access: staff(STAFF_READ), query: listRulesQuery, response: ruleListResponse,
    handler: (ctx, { query }) => tx(deps, ctx, (trx) => listRules(trx, tenantOf(ctx), query)),
  });

  router.api({
    method: 'POST', path: '/api/monitoring/rules', summary: 'Crea una regola, anche da un modello standard (modello): la sua prima versione è una bozza (la condizione è validata, con il percorso del nodo errato)', tag,
    access: staff(RULE_EDITORS), body: createRuleBody, response: ruleDetailResponse, status: 201,
    handler: async (ctx, { body }) => {
      const { rule } = await tx(deps, ctx, (trx) => createRule(trx, tenantOf(ctx), ruleActor(ctx), body));
      ctx.set('Location', `/api/monitoring/rules/${rule.id}`);
      return readRule(deps, ctx, rule.id);
    },
  });

  router.api({
    method: 'GET', path: '/api/monitoring/rules/:id', summary: 'Una regola (per id o codice) con le sue versioni', tag,
    access: staff(STAFF_READ), response: ruleDetailResponse,
    handler: (ctx, { params }) => readRule(deps, ctx, params.id!),
  });

  router.api({
    method: 'PUT', path: '/api/monitoring/rules/:id',
    summary: 'Modifica una regola: la bozza (creata dalla versione in vigore se manca), oppure ritira la versione in vigore (azione ritira) o scarta la bozza (azione scarta_bozza)',
    tag, access: staff(RULE_EDITORS), body: updateRuleSchema, response: ruleDetailResponse,
    handler: (ctx, { body, params }) => changeRule(deps, ctx, params.id!, body),
  });
};
