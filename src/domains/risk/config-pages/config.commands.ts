import type { Knex } from 'knex';
import type { Deps } from '../../../deps';
import { tenantOf } from '../../../http/auth';
import { HttpError } from '../../../http/errors';
import type { Ctx } from '../../../http/render';
import { staffActor } from '../../../kit/actor';
import type { Condizione } from '../../../kit/conditions/condition.types';
import {
  activateRuleSet, activeRuleSet, classForScore, createDraft, createFactor, createRule, createThreshold, deactivateFactor, deactivateRule, discardDraft,
  higherClass, policyFor, RISK_LIST_LABELS, thresholds, updateFactor, updateRule, updateThreshold, validateRuleCondition,
} from '../index';
import type { Approvazione, Classe, Famiglia, LivelloCdd } from '../risk.types';

/**
 * The pages' one door to the engine's commands (src/domains/risk/engine): they validate again,
 * keep one draft and one active version per tenant, refuse changes outside the draft, and audit
 * in the same transaction. The pages pass the signed-in user and show the refusals.
 */
const who = (ctx: Ctx) => ({ codAzienda: tenantOf(ctx), actor: staffActor(ctx.state.user!) });

/** Seeds the default model on a tenant's first visit, as any reader of the model does. */
export const ensureModel = (trx: Knex.Transaction, codAzienda: string) => activeRuleSet(trx, codAzienda);

export const listLabels = (): Record<string, string> => RISK_LIST_LABELS;
/** The rule's condition checked as the engine checks it on save: the language, then the profile's fields and the named lists. */
export const checkRuleCondition = (c: unknown) => validateRuleCondition(c);

export interface RuleInput { nome: string; descrizione: string; fattore_id: string; punti: number; classe_minima: Classe | null; condizione: Condizione; attiva?: boolean }
export interface FactorInput { nome: string; descrizione: string; attivo?: boolean }
export interface NewFactorInput { nome: string; descrizione: string; famiglia: Famiglia; codice: string }
export interface ThresholdInput { punteggio_min: number; livello_cdd: LivelloCdd; revisione_mesi: number; approvazione: Approvazione; descrizione: string; classe?: Classe }

export const newDraft = (deps: Deps, ctx: Ctx, descrizione: string) => createDraft(deps, { ...who(ctx), input: { descrizione } });
export const discardTheDraft = (deps: Deps, ctx: Ctx, id: string) => discardDraft(deps, { ...who(ctx), id });
export const activateDraft = (deps: Deps, ctx: Ctx, id: string) => activateRuleSet(deps, { ...who(ctx), id });

/** A new rule; the engine puts it in the tenant's draft (the page checks there is one first). */
export const addRule = (deps: Deps, ctx: Ctx, input: RuleInput & { codice: string }) => createRule(deps, { ...who(ctx), input });
export const changeRule = (deps: Deps, ctx: Ctx, id: string, input: RuleInput) => updateRule(deps, { ...who(ctx), id, input });
export const switchOffRule = (deps: Deps, ctx: Ctx, id: string) => deactivateRule(deps, { ...who(ctx), id });

export const addFactor = (deps: Deps, ctx: Ctx, input: NewFactorInput) => createFactor(deps, { ...who(ctx), input });
export const changeFactor = (deps: Deps, ctx: Ctx, id: string, input: FactorInput) => updateFactor(deps, { ...who(ctx), id, input });
export const switchOffFactor = (deps: Deps, ctx: Ctx, id: string) => deactivateFactor(deps, { ...who(ctx), id });

export const addThreshold = (deps: Deps, ctx: Ctx, input: ThresholdInput & { classe: Classe }) => createThreshold(deps, { ...who(ctx), input });
export const changeThreshold = (deps: Deps, ctx: Ctx, id: string, input: ThresholdInput) => updateThreshold(deps, { ...who(ctx), id, input });

/** "Prova la policy": the class of a score (raised by a rule's floor) and its consequences; nothing stored. */
export async function evaluatePolicyTrial(trx: Knex.Transaction, codAzienda: string, punteggio: number, floor: Classe | null) {
  const soglie = await thresholds(trx, codAzienda);
  const classe_da_punteggio = classForScore(soglie, punteggio);
  const classe = floor ? higherClass(classe_da_punteggio, floor) : classe_da_punteggio;
  const p = policyFor(soglie, classe);
  return { classe, classe_da_punteggio, livello_cdd: p.livello_cdd, revisione_mesi: p.revisione_mesi, approvazione: p.approvazione };
}

/** What a refusal says on the page: the command's own Italian detail. */
export const refusalMessage = (err: HttpError) => err.detail ?? err.title;

/** A command's refusal on a form: 422 field errors next to their fields, any other refusal above the form; 404 and failures go on. */
export function formProblem(err: unknown): { errors: Record<string, string>; status: number; refusal?: string } {
  if (err instanceof HttpError && err.code === 'VALIDATION_ERROR' && Array.isArray(err.extra.errors)) {
    return { errors: Object.fromEntries((err.extra.errors as { path: string; message: string }[]).map((e) => [e.path || '_form', e.message])), status: 422 };
  }
  if (err instanceof HttpError && err.status < 500 && err.status !== 404) return { errors: {}, status: err.status, refusal: refusalMessage(err) };
  throw err;
}
