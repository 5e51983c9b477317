import { z } from 'zod';
import { assertReferencesInTenant } from '../../db/references';
import { withTenant } from '../../db/tenant';
import { tenantOf } from '../../http/auth';
import { notFound } from '../../http/errors';
import { aggregateKey } from '../../kit/conditions';
import type { Condizione } from '../../kit/conditions/condition.types';
import { staff } from '../../kit/access';
import { staffActor } from '../../kit/actor';
import type { RegisterRoutes } from '../../kit/area';
import type { ApiCtx } from '../../http/api-route';
import { STAFF_READ, type Role } from '../../kit/roles';
import { todayInRome } from '../records';
import { aggregatesFor } from './engine/engine.customers';
import { explainContribution } from './engine/engine.explain';
import { createFactor, deactivateFactor, listFactors, updateFactor } from './engine/engine.factor-commands';
import { completeProfile } from './engine/engine.profile';
import { riskLists } from './engine/engine.lists';
import { createRule, deactivateRule, getRule, listRules, updateRule } from './engine/engine.rule-commands';
import { activeRuleSet, findRuleSet, thresholds } from './engine/engine.rulesets';
import { activateRuleSet, createDraft, discardDraft, getRuleSet, listRuleSets } from './engine/engine.ruleset-commands';
import { draftCreateSchema, factorCreateSchema, factorUpdateSchema, ruleCreateSchema, ruleUpdateSchema, thresholdCreateSchema, thresholdUpdateSchema } from './engine/engine.schemas';
import { policyFor, scoreProfile } from './engine/engine.score';
import { createThreshold, listThresholds, updateThreshold } from './engine/engine.threshold-commands';
import {
  discardResponse, evaluateBody, evaluateResponse, factorResponse, factorsQuery, factorsResponse, ruleResponse, rulesQuery, rulesResponse,
  ruleSetResponse, ruleSetsResponse, thresholdResponse, thresholdsResponse,
} from './risk-config.schemas';

const tag = 'Rischio: modello';
/** Who changes the model: the compliance officer and the tenant's administrator; activation is the compliance officer's alone. */
const MODEL_WRITE: Role[] = ['co', 'admin'];
const CO: Role[] = ['co'];
const empty = z.object({});

/**
 * The risk model's API (docs/risk.md): factors, versioned rule sets and their rules, the
 * policy thresholds, and the evaluation of a profile that stores nothing. Every change goes
 * through the model's commands (one tenant transaction with its audit event each).
 */
export const registerRiskConfigRoutes: RegisterRoutes = (router, { deps }) => {
  const call = (ctx: ApiCtx) => ({ codAzienda: tenantOf(ctx), actor: staffActor(ctx.state.user!) });

  // Factors
  router.api({
    method: 'GET', path: '/api/risk/factors', summary: 'Fattori di rischio per famiglia EBA, con le regole attive che li usano', tag, access: staff(STAFF_READ),
    query: factorsQuery, response: factorsResponse,
    handler: async (ctx, { query }) => ({ items: await listFactors(deps, { ...call(ctx), ...(query.famiglia ? { famiglia: query.famiglia } : {}), ...(query.attivo !== undefined ? { attivo: query.attivo } : {}) }) }),
  });
  router.api({
    method: 'POST', path: '/api/risk/factors', summary: 'Crea un fattore di rischio', tag, access: staff(MODEL_WRITE), body: factorCreateSchema, response: factorResponse, status: 201,
    handler: (ctx, { body }) => createFactor(deps, { ...call(ctx), input: body }),
  });
  router.api({
    method: 'PUT', path: '/api/risk/factors/:id', summary: 'Modifica nome e descrizione di un fattore, o lo riattiva', tag, access: staff(MODEL_WRITE), body: factorUpdateSchema, response: factorResponse,
    handler: (ctx, { body, params }) => updateFactor(deps, { ...call(ctx), id: params.id!, input: body }),
  });
  router.api({
    method: 'DELETE', path: '/api/risk/factors/:id', summary: 'Disattiva un fattore (nessuna nuova regola potrà usarlo)', tag, access: staff(MODEL_WRITE), response: factorResponse,
    handler: (ctx, { params }) => deactivateFactor(deps, { ...call(ctx), id: params.id! }),
  });

  // Rules
  router.api({
    method: 'GET', path: '/api/risk/rules', summary: 'Regole di una versione (di norma quella attiva), con la condizione in italiano', tag, access: staff(STAFF_READ),
    query: rulesQuery, response: rulesResponse,
    handler: async (ctx, { query }) => ({ items: await listRules(deps, { ...call(ctx), ...(query.versione_id ? { versioneId: query.versione_id } : {}) }) }),
  });
  router.api({
    method: 'GET', path: '/api/risk/rules/:id', summary: 'Una regola', tag, access: staff(STAFF_READ), response: ruleResponse,
    handler: (ctx, { params }) => getRule(deps, { ...call(ctx), id: params.id! }),
  });
  router.api({
    method: 'POST', path: '/api/risk/rules', summary: 'Crea una regola nella bozza (creata dalla versione attiva se manca)', tag, access: staff(MODEL_WRITE),
    body: ruleCreateSchema, response: ruleResponse, status: 201,
    handler: (ctx, { body }) => createRule(deps, { ...call(ctx), input: body }),
  });
  router.api({
    method: 'PUT', path: '/api/risk/rules/:id', summary: 'Modifica una regola della bozza (409 per una versione attiva o ritirata)', tag, access: staff(MODEL_WRITE),
    body: ruleUpdateSchema, response: ruleResponse,
    handler: (ctx, { body, params }) => updateRule(deps, { ...call(ctx), id: params.id!, input: body }),
  });
  router.api({
    method: 'DELETE', path: '/api/risk/rules/:id', summary: 'Disattiva una regola della bozza', tag, access: staff(MODEL_WRITE), response: ruleResponse,
    handler: (ctx, { params }) => deactivateRule(deps, { ...call(ctx), id: params.id! }),
  });

  // Rule sets (versions)
  router.api({
    method: 'GET', path: '/api/risk/rule-sets', summary: 'Versioni delle regole (bozza, attiva, ritirate)', tag, access: staff(STAFF_READ), response: ruleSetsResponse,
    handler: async (ctx) => ({ items: await listRuleSets(deps, call(ctx)) }),
  });
  router.api({
    method: 'POST', path: '/api/risk/rule-sets', summary: 'Crea una bozza copiando la versione attiva (409 se ne esiste già una)', tag, access: staff(MODEL_WRITE),
    body: draftCreateSchema, response: ruleSetResponse, status: 201,
    handler: (ctx, { body }) => createDraft(deps, { ...call(ctx), input: body }),
  });
  router.api({
    method: 'GET', path: '/api/risk/rule-sets/:id', summary: 'Una versione con le sue regole', tag, access: staff(STAFF_READ), response: ruleSetResponse,
    handler: (ctx, { params }) => getRuleSet(deps, { ...call(ctx), id: params.id! }),
  });
  router.api({
    method: 'POST', path: '/api/risk/rule-sets/:id/activate', summary: 'Attiva la bozza e ritira la versione attiva (responsabile antiriciclaggio)', tag, access: staff(CO),
    body: empty, response: ruleSetResponse,
    handler: (ctx, { params }) => activateRuleSet(deps, { ...call(ctx), id: params.id! }),
  });
  router.api({
    method: 'DELETE', path: '/api/risk/rule-sets/:id', summary: 'Scarta la bozza', tag, access: staff(MODEL_WRITE), response: discardResponse,
    handler: (ctx, { params }) => discardDraft(deps, { ...call(ctx), id: params.id! }),
  });

  // Policy
  router.api({
    method: 'GET', path: '/api/risk/policy/thresholds', summary: 'Soglie: punteggio minimo di ogni classe e le sue conseguenze', tag, access: staff(STAFF_READ), response: thresholdsResponse,
    handler: async (ctx) => ({ items: await listThresholds(deps, call(ctx)) }),
  });
  router.api({
    method: 'POST', path: '/api/risk/policy/thresholds', summary: 'Crea la soglia di una classe che non ne ha', tag, access: staff(MODEL_WRITE),
    body: thresholdCreateSchema, response: thresholdResponse, status: 201,
    handler: (ctx, { body }) => createThreshold(deps, { ...call(ctx), input: body }),
  });
  router.api({
    method: 'PUT', path: '/api/risk/policy/thresholds/:id', summary: 'Modifica una soglia (le soglie crescono con la classe)', tag, access: staff(MODEL_WRITE),
    body: thresholdUpdateSchema, response: thresholdResponse,
    handler: (ctx, { body, params }) => updateThreshold(deps, { ...call(ctx), id: params.id!, input: body }),
  });
  router.api({
    method: 'POST', path: '/api/risk/policy/evaluate', summary: 'Punteggio, classe e conseguenze per un profilo dato (non salva nulla)', tag, access: staff(STAFF_READ),
    body: evaluateBody, response: evaluateResponse,
    handler: (ctx, { body }) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, async (trx) => {
      const codAzienda = tenantOf(ctx);
      // A version named in the body is a reference: another tenant's, or none, is a 422 on versione_id.
      await assertReferencesInTenant(trx, codAzienda, { versione_id: { kind: 'rischio_versione', value: body.versione_id } });
      const versione = body.versione_id ? await findRuleSet(trx, codAzienda, body.versione_id) : await activeRuleSet(trx, codAzienda);
      if (!versione) throw notFound('Versione delle regole');
      const soglie = await thresholds(trx, codAzienda);
      const profilo = completeProfile(body.profilo as Parameters<typeof completeProfile>[0]);
      const punteggio = scoreProfile(versione, soglie, profilo, body.aggregati, body.oggi ?? todayInRome());
      const liste = riskLists();
      const byId = new Map(versione.regole.map((r) => [r.id, r.condizione]));
      const lista = (c: Condizione | undefined) => (c && 'campo' in c && c.op === 'intersects' && c.valore && typeof c.valore === 'object' && 'lista' in c.valore ? c.valore.lista : undefined);
      const { classe, livello_cdd, revisione_mesi, approvazione, descrizione } = policyFor(soglie, punteggio.classe);
      return {
        punteggio: { ...punteggio, contributi: punteggio.contributi.map((c) => ({ ...c, spiegazione: explainContribution(c, liste, lista(byId.get(c.regola_id))) })) },
        politica: { classe, livello_cdd, revisione_mesi, approvazione, descrizione },
        aggregati_richiesti: aggregatesFor(versione).map(aggregateKey),
      };
    }),
  });
};
