import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { describeCondition } from '../../../kit/conditions';
import { notFound, ValidationError } from '../../../http/errors';
import { isUuid } from '../../../kit/ids';
import type { StatoVersione } from '../risk.types';
import { audit, ensureModel, inTenant, isUniqueViolation, parseInput, versionConflict, type ModelCall, type ModelDeps } from './engine.commands.shared';
import { rulesOf } from './engine.rulesets';
import { createDraftIn, draftOf } from './engine.ruleset-commands';
import type { RegolaCaricata } from './engine.score';
import { ruleCreateSchema, ruleUpdateSchema, type RuleCreate, type RuleUpdate } from './engine.schemas';

/** A rule as the API and the pages show it: with its version's number and state, and its condition in Italian. */
export type RegolaVista = RegolaCaricata & { versione: number; stato_versione: StatoVersione; condizione_testo: string };

async function viewOf(trx: Knex.Transaction, codAzienda: string, rules: RegolaCaricata[]): Promise<RegolaVista[]> {
  const ids = [...new Set(rules.map((r) => r.versione_id))];
  const versions = new Map((await trx('rischio_versioni').where({ cod_azienda: codAzienda }).whereIn('id', ids).select('id', 'versione', 'stato') as
    { id: string; versione: number; stato: StatoVersione }[]).map((v) => [v.id, v]));
  return rules.map((r) => {
    let testo: string;
    try { testo = describeCondition(r.condizione); } catch { testo = 'Condizione non valida'; }
    return { ...r, versione: versions.get(r.versione_id)!.versione, stato_versione: versions.get(r.versione_id)!.stato, condizione_testo: testo };
  });
}

async function ruleOr404(trx: Knex.Transaction, codAzienda: string, id: string): Promise<RegolaVista> {
  const row = isUuid(id) ? await trx('rischio_regole').where({ cod_azienda: codAzienda, id }).first('versione_id') as { versione_id: string } | undefined : undefined;
  const rule = row ? (await rulesOf(trx, codAzienda, [row.versione_id])).find((r) => r.id === id) : undefined;
  if (!rule) throw notFound('Regola');
  return (await viewOf(trx, codAzienda, [rule]))[0]!;
}

/** The rules of a version (default: the active one). */
export async function listRules(deps: ModelDeps, p: ModelCall & { versioneId?: string }): Promise<RegolaVista[]> {
  return inTenant(deps, p, async (trx) => {
    await ensureModel(trx, p.codAzienda);
    let versioneId = p.versioneId;
    if (versioneId === undefined) {
      versioneId = (await trx('rischio_versioni').where({ cod_azienda: p.codAzienda, stato: 'active' }).first('id') as { id: string }).id;
    } else if (!isUuid(versioneId) || !(await trx('rischio_versioni').where({ cod_azienda: p.codAzienda, id: versioneId }).first('id'))) {
      throw notFound('Versione delle regole');
    }
    return viewOf(trx, p.codAzienda, await rulesOf(trx, p.codAzienda, [versioneId]));
  });
}

export async function getRule(deps: ModelDeps, p: ModelCall & { id: string }): Promise<RegolaVista> {
  return inTenant(deps, p, (trx) => ruleOr404(trx, p.codAzienda, p.id));
}

/** The factor a rule names: the tenant's and in use. */
async function checkFactor(trx: Knex.Transaction, codAzienda: string, fattoreId: string) {
  const f = await trx('rischio_fattori').where({ cod_azienda: codAzienda, id: fattoreId }).first('attivo') as { attivo: boolean } | undefined;
  if (!f) throw new ValidationError([{ path: 'fattore_id', message: 'Fattore inesistente' }]);
  if (!f.attivo) throw new ValidationError([{ path: 'fattore_id', message: 'Fattore disattivato: riattivalo o scegline un altro' }]);
}

const uniqueCode = async <T>(codice: string, fn: () => Promise<T>): Promise<T> => {
  try { return await fn(); } catch (err) {
    if (isUniqueViolation(err)) throw new ValidationError([{ path: 'codice', message: `La bozza ha già una regola con codice ${codice}` }]);
    throw err;
  }
};

/** A new rule, always in the draft (made from the active version when there is none). */
export async function createRule(deps: ModelDeps, p: ModelCall & { input: RuleCreate }): Promise<RegolaVista> {
  const input = parseInput(ruleCreateSchema, p.input);
  return inTenant(deps, p, async (trx) => {
    await ensureModel(trx, p.codAzienda);
    const draft = await draftOf(trx, p.codAzienda);
    const versioneId = draft?.id ?? await createDraftIn(trx, p, '');
    await checkFactor(trx, p.codAzienda, input.fattore_id);
    const ordine = input.ordine ?? (((await trx('rischio_regole').where({ cod_azienda: p.codAzienda, versione_id: versioneId }).max('ordine as m').first()) as { m: number | null }).m ?? 0) + 10;
    const id = randomUUID();
    await uniqueCode(input.codice, () => trx.transaction(async (sp) => {
      await sp('rischio_regole').insert({
        id, cod_azienda: p.codAzienda, versione_id: versioneId, fattore_id: input.fattore_id, codice: input.codice, nome: input.nome, descrizione: input.descrizione,
        condizione: JSON.stringify(input.condizione), punti: input.punti, classe_minima: input.classe_minima, attiva: input.attiva, ordine, created_by: p.actor.username,
      });
    }));
    await audit(trx, p, 'risk_model.rule-create', 'rischio_regola', id, { codice: input.codice, versione_id: versioneId, punti: input.punti, classe_minima: input.classe_minima });
    return ruleOr404(trx, p.codAzienda, id);
  });
}

/** A rule of an active or retired version cannot change: the draft's copy of it can (409 says how to get there). */
async function draftRuleOr409(trx: Knex.Transaction, codAzienda: string, id: string): Promise<RegolaVista> {
  const rule = await ruleOr404(trx, codAzienda, id);
  if (rule.stato_versione === 'draft') {
    await trx('rischio_versioni').where({ id: rule.versione_id }).forUpdate().first('id');
    return rule;
  }
  const draft = await trx('rischio_versioni').where({ cod_azienda: codAzienda, stato: 'draft' }).first('id') as { id: string } | undefined;
  const copy = draft ? await trx('rischio_regole').where({ cod_azienda: codAzienda, versione_id: draft.id, codice: rule.codice }).first('id') as { id: string } | undefined : undefined;
  throw versionConflict('VERSION_NOT_EDITABLE',
    `La regola appartiene alla versione ${rule.versione} (${rule.stato_versione === 'active' ? 'attiva' : 'ritirata'}), che non si modifica: ${draft ? 'modifica la sua copia nella bozza' : 'crea una bozza e modifica la sua copia'}`,
    rule.stato_versione, draft ? ['modifica-bozza'] : ['crea-bozza'], { bozza_id: draft?.id ?? null, regola_bozza_id: copy?.id ?? null });
}

export async function updateRule(deps: ModelDeps, p: ModelCall & { id: string; input: RuleUpdate }): Promise<RegolaVista> {
  const input = parseInput(ruleUpdateSchema, p.input);
  return inTenant(deps, p, async (trx) => {
    const rule = await draftRuleOr409(trx, p.codAzienda, p.id);
    if (input.fattore_id) await checkFactor(trx, p.codAzienda, input.fattore_id);
    const changes: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(input)) if (v !== undefined) changes[k] = k === 'condizione' ? JSON.stringify(v) : v;
    if (Object.keys(changes).length) {
      await trx('rischio_regole').where({ cod_azienda: p.codAzienda, id: rule.id }).update({ ...changes, updated_by: p.actor.username, updated_at: new Date() });
      await audit(trx, p, 'risk_model.rule-update', 'rischio_regola', rule.id, { codice: rule.codice, versione_id: rule.versione_id, modifiche: Object.keys(changes) });
    }
    return ruleOr404(trx, p.codAzienda, rule.id);
  });
}

/** Takes a rule out of the draft's scoring (kept, inactive, so the draft still shows what changed). */
export async function deactivateRule(deps: ModelDeps, p: ModelCall & { id: string }): Promise<RegolaVista> {
  return inTenant(deps, p, async (trx) => {
    const rule = await draftRuleOr409(trx, p.codAzienda, p.id);
    if (rule.attiva) {
      await trx('rischio_regole').where({ cod_azienda: p.codAzienda, id: rule.id }).update({ attiva: false, updated_by: p.actor.username, updated_at: new Date() });
      await audit(trx, p, 'risk_model.rule-deactivate', 'rischio_regola', rule.id, { codice: rule.codice, versione_id: rule.versione_id });
    }
    return ruleOr404(trx, p.codAzienda, rule.id);
  });
}
