import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { forbidden, notFound, ValidationError, type FieldError } from '../../../http/errors';
import { isUuid } from '../../../kit/ids';
import type { StatoVersione, VersioneRegole } from '../risk.types';
import { validateRuleCondition } from './engine.catalogue';
import {
  audit, ensureModel, inTenant, isUniqueViolation, parseInput, versionActions, versionConflict, type ModelCall, type ModelDeps,
} from './engine.commands.shared';
import { findRuleSet } from './engine.rulesets';
import { draftCreateSchema } from './engine.schemas';

export interface VersioneSintesi {
  id: string; versione: number; stato: StatoVersione; descrizione: string; basata_su: string | null; regole: number;
  created_by: string; created_at: Date; activated_by: string | null; activated_at: Date | null; retired_by: string | null; retired_at: Date | null;
  allowed_actions: string[];
}
export type VersioneDettaglio = VersioneRegole & Omit<VersioneSintesi, 'regole'>;

const SUMMARY = ['v.id', 'v.versione', 'v.stato', 'v.descrizione', 'v.basata_su', 'v.created_by', 'v.created_at', 'v.activated_by', 'v.activated_at', 'v.retired_by', 'v.retired_at'];

async function summaries(trx: Knex.Transaction, codAzienda: string, id?: string): Promise<VersioneSintesi[]> {
  const q = trx('rischio_versioni as v').where('v.cod_azienda', codAzienda)
    .select(...SUMMARY, trx.raw('(select count(*)::int from rischio_regole r where r.versione_id = v.id and r.cod_azienda = v.cod_azienda) as regole'))
    .orderBy('v.versione', 'desc');
  if (id) q.where('v.id', id);
  const rows = await q as Omit<VersioneSintesi, 'allowed_actions'>[];
  const draftExists = id ? Boolean(await trx('rischio_versioni').where({ cod_azienda: codAzienda, stato: 'draft' }).first('id')) : rows.some((r) => r.stato === 'draft');
  return rows.map((r) => ({ ...r, allowed_actions: versionActions(r.stato, draftExists) }));
}

export async function versionOr404(trx: Knex.Transaction, codAzienda: string, id: string): Promise<VersioneDettaglio> {
  const [s] = isUuid(id) ? await summaries(trx, codAzienda, id) : [];
  const v = s ? await findRuleSet(trx, codAzienda, id) : undefined;
  if (!s || !v) throw notFound('Versione delle regole');
  const { regole: _count, ...meta } = s;
  return { ...meta, regole: v.regole };
}

export async function listRuleSets(deps: ModelDeps, p: ModelCall): Promise<VersioneSintesi[]> {
  return inTenant(deps, p, async (trx) => {
    await ensureModel(trx, p.codAzienda);
    return summaries(trx, p.codAzienda);
  });
}

export async function getRuleSet(deps: ModelDeps, p: ModelCall & { id: string }): Promise<VersioneDettaglio> {
  return inTenant(deps, p, (trx) => versionOr404(trx, p.codAzienda, p.id));
}

/** The tenant's draft, if any (locked for the change that follows). */
export const draftOf = (trx: Knex.Transaction, codAzienda: string) =>
  trx('rischio_versioni').where({ cod_azienda: codAzienda, stato: 'draft' }).forUpdate().first('id', 'versione') as Promise<{ id: string; versione: number } | undefined>;

/**
 * A draft copied from the active version (same rules, same ids of factors), in the caller's
 * transaction. A second draft is refused: one draft per tenant (the unique index says so too).
 */
export async function createDraftIn(trx: Knex.Transaction, p: ModelCall, descrizione: string): Promise<string> {
  await ensureModel(trx, p.codAzienda);
  // Serialises drafts of one tenant: two "new draft" clicks make one draft and one 409.
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`rischio-bozza:${p.codAzienda}`]);
  const existing = await draftOf(trx, p.codAzienda);
  if (existing) {
    throw versionConflict('DRAFT_EXISTS', `Esiste già una bozza (versione ${existing.versione}): modificala, attivala o scartala`, 'draft', ['modifica', 'attiva', 'scarta'], { bozza_id: existing.id });
  }
  const active = await trx('rischio_versioni').where({ cod_azienda: p.codAzienda, stato: 'active' }).first('id', 'versione') as { id: string; versione: number } | undefined;
  const { max } = await trx('rischio_versioni').where({ cod_azienda: p.codAzienda }).max('versione as max').first() as { max: number | null };
  const id = randomUUID();
  const versione = (max ?? 0) + 1;
  try {
    await trx.transaction(async (sp) => {
      await sp('rischio_versioni').insert({ id, cod_azienda: p.codAzienda, versione, stato: 'draft', descrizione, basata_su: active?.id ?? null, created_by: p.actor.username });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw versionConflict('DRAFT_EXISTS', 'Esiste già una bozza: modificala, attivala o scartala', 'draft', ['modifica', 'attiva', 'scarta']);
    throw err;
  }
  if (active) {
    await trx.raw(`insert into rischio_regole (id, cod_azienda, versione_id, fattore_id, codice, nome, descrizione, condizione, punti, classe_minima, attiva, ordine, created_by)
      select gen_random_uuid(), cod_azienda, ?, fattore_id, codice, nome, descrizione, condizione, punti, classe_minima, attiva, ordine, ?
      from rischio_regole where cod_azienda = ? and versione_id = ?`, [id, p.actor.username, p.codAzienda, active.id]);
  }
  await audit(trx, p, 'risk_model.draft-create', 'rischio_versione', id, { versione, basata_su: active?.versione ?? null });
  return id;
}

export async function createDraft(deps: ModelDeps, p: ModelCall & { input?: { descrizione?: string } }): Promise<VersioneDettaglio> {
  const input = parseInput(draftCreateSchema, p.input ?? {});
  return inTenant(deps, p, async (trx) => versionOr404(trx, p.codAzienda, await createDraftIn(trx, p, input.descrizione)));
}

async function lockedVersion(trx: Knex.Transaction, codAzienda: string, id: string) {
  const v = isUuid(id) ? await trx('rischio_versioni').where({ cod_azienda: codAzienda, id }).forUpdate().first('id', 'versione', 'stato') as { id: string; versione: number; stato: StatoVersione } | undefined : undefined;
  if (!v) throw notFound('Versione delle regole');
  return v;
}

/**
 * Discards the draft: its rules and the dry runs made of it go (they describe a version that
 * will never exist); a dry run still running is waited for (409).
 */
export async function discardDraft(deps: ModelDeps, p: ModelCall & { id: string }): Promise<{ id: string; versione: number; scartata: true }> {
  return inTenant(deps, p, async (trx) => {
    const v = await lockedVersion(trx, p.codAzienda, p.id);
    if (v.stato !== 'draft') {
      const draft = await trx('rischio_versioni').where({ cod_azienda: p.codAzienda, stato: 'draft' }).first('id');
      throw versionConflict('NOT_A_DRAFT', 'Solo una bozza può essere scartata', v.stato, versionActions(v.stato, Boolean(draft)));
    }
    const runs = await trx('rischio_esecuzioni').where({ cod_azienda: p.codAzienda, versione_id: v.id }).select('id', 'stato') as { id: string; stato: string }[];
    if (runs.some((r) => r.stato === 'running')) {
      throw versionConflict('DRY_RUN_RUNNING', 'Una simulazione di questa bozza è in corso: attendi che finisca o annullala', 'draft', ['attiva']);
    }
    if (runs.length) {
      await trx('rischio_esecuzioni_risultati').where({ cod_azienda: p.codAzienda }).whereIn('esecuzione_id', runs.map((r) => r.id)).delete();
      await trx('rischio_esecuzioni').where({ cod_azienda: p.codAzienda }).whereIn('id', runs.map((r) => r.id)).delete();
    }
    const regole = await trx('rischio_regole').where({ cod_azienda: p.codAzienda, versione_id: v.id }).delete();
    await trx('rischio_versioni').where({ cod_azienda: p.codAzienda, id: v.id }).delete();
    await audit(trx, p, 'risk_model.draft-discard', 'rischio_versione', v.id, { versione: v.versione, regole, simulazioni: runs.length });
    return { id: v.id, versione: v.versione, scartata: true as const };
  });
}

/** Every condition of the draft validates against the language and the catalogue: the errors name the rule and the place. */
export function draftIssues(v: VersioneRegole): FieldError[] {
  return v.regole.flatMap((r) => validateRuleCondition(r.condizione).map((i) => ({ path: ['regole', r.codice, 'condizione', ...i.path].join('.'), message: i.message })));
}

/**
 * Activates a draft (compliance officer only): the active version retires, the draft becomes
 * active, both in one transaction. Scores already recorded keep the version they used.
 */
export async function activateRuleSet(deps: ModelDeps, p: ModelCall & { id: string }): Promise<VersioneDettaglio> {
  if (!p.actor.roles.includes('co')) throw forbidden('Solo il responsabile antiriciclaggio può attivare una versione delle regole');
  return inTenant(deps, p, async (trx) => {
    const v = await lockedVersion(trx, p.codAzienda, p.id);
    if (v.stato !== 'draft') {
      throw versionConflict('NOT_A_DRAFT', v.stato === 'active' ? 'Questa versione è già attiva' : 'Una versione ritirata non può tornare attiva: crea una bozza', v.stato,
        versionActions(v.stato, Boolean(await trx('rischio_versioni').where({ cod_azienda: p.codAzienda, stato: 'draft' }).first('id'))));
    }
    const draft = await findRuleSet(trx, p.codAzienda, v.id);
    const issues = draft ? draftIssues(draft) : [];
    if (issues.length) throw new ValidationError(issues, 'La bozza contiene condizioni non valide: correggile prima di attivarla');
    const now = new Date();
    const previous = await trx('rischio_versioni').where({ cod_azienda: p.codAzienda, stato: 'active' }).forUpdate().first('id', 'versione') as { id: string; versione: number } | undefined;
    if (previous) await trx('rischio_versioni').where({ id: previous.id }).update({ stato: 'retired', retired_by: p.actor.username, retired_at: now });
    await trx('rischio_versioni').where({ id: v.id }).update({ stato: 'active', activated_by: p.actor.username, activated_at: now });
    await audit(trx, p, 'risk_model.activate', 'rischio_versione', v.id, { versione: v.versione, ritirata: previous?.versione ?? null, regole: draft?.regole.length ?? 0 });
    return versionOr404(trx, p.codAzienda, v.id);
  });
}
