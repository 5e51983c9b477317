import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { conflict, notFound, ValidationError } from '../../../http/errors';
import { appendAudit } from '../../audit';
import type { CreateRuleInput, UpdateRuleInput } from './rules.schemas';
import { findRule, ruleVersions, type RuleRow, type VersionRow } from './rules.repo';

/**
 * Writes of monitoring rules, each in the caller's tenant transaction with its audit event. The
 * rule row is locked first, so two writers of one rule queue (and the partial unique indexes stop
 * a second draft or a second active version whatever happens).
 */
export interface RuleActor { id: string; username: string }

type VersionContent = Pick<VersionRow, 'condizione' | 'ambito' | 'livello' | 'punteggio' | 'esito' | 'finestra_dedup_giorni' | 'indicatori' | 'descrizione'>;
const CONTENT_KEYS = ['condizione', 'ambito', 'livello', 'punteggio', 'esito', 'finestra_dedup_giorni', 'indicatori', 'descrizione'] as const;

const versionInsert = (codAzienda: string, ruleId: string, versione: number, c: VersionContent, actor: RuleActor, basataSu: string | null) => ({
  id: randomUUID(), cod_azienda: codAzienda, regola_id: ruleId, versione, stato: 'bozza',
  condizione: JSON.stringify(c.condizione), ambito: c.ambito, livello: c.livello, punteggio: c.punteggio, esito: c.esito,
  finestra_dedup_giorni: c.finestra_dedup_giorni, indicatori: c.indicatori, descrizione: c.descrizione,
  basata_su: basataSu, created_by: actor.id, updated_by: actor.id,
});

const audit = (trx: Knex.Transaction, codAzienda: string, actor: RuleActor, action: Parameters<typeof appendAudit>[1]['action'], ruleId: string, data: Record<string, unknown>) =>
  appendAudit(trx, { codAzienda, actor: actor.username, action, entityType: 'monitoring_rule', entityId: ruleId, data });

/** A new rule: its identity and its first version, a draft (it is evaluated only once activated). */
export async function createRule(trx: Knex.Transaction, codAzienda: string, actor: RuleActor, input: CreateRuleInput) {
  const exists = await trx('monitoring_regole').where({ cod_azienda: codAzienda, cod_regola: input.cod_regola }).first('id');
  if (exists) throw new ValidationError([{ path: 'cod_regola', message: 'Esiste già una regola con questo codice' }]);
  const id = randomUUID();
  const [rule] = await trx('monitoring_regole')
    .insert({ id, cod_azienda: codAzienda, cod_regola: input.cod_regola, nome: input.nome, tipologia: input.tipologia, created_by: actor.id })
    .onConflict(['cod_azienda', 'cod_regola']).ignore().returning('*') as RuleRow[];
  // Two creations of one code at once: the second finds the first's row.
  if (!rule) throw new ValidationError([{ path: 'cod_regola', message: 'Esiste già una regola con questo codice' }]);
  const [draft] = await trx('monitoring_regole_versioni').insert(versionInsert(codAzienda, id, 1, input, actor, null)).returning('*') as VersionRow[];
  await audit(trx, codAzienda, actor, 'monitoring.rule.create', id, {
    cod_regola: input.cod_regola, nome: input.nome, tipologia: input.tipologia, versione: 1, condizione: input.condizione, punteggio: input.punteggio,
  });
  return { rule, draft: draft! };
}

async function lockedRule(trx: Knex.Transaction, codAzienda: string, idOrCode: string) {
  const rule = await findRule(trx, codAzienda, idOrCode, true);
  if (!rule) throw notFound('Regola');
  return rule;
}

/**
 * Changes a rule: name and typology at once (they are the rule's, not a version's); the version's
 * content in the draft, which is opened from the version in force (or the latest one) when there
 * is none. A version in force or retired is never changed.
 */
export async function updateRuleDraft(trx: Knex.Transaction, codAzienda: string, actor: RuleActor, idOrCode: string, input: UpdateRuleInput) {
  const rule = await lockedRule(trx, codAzienda, idOrCode);
  const identity: Partial<Pick<RuleRow, 'nome' | 'tipologia'>> = {};
  if (input.nome !== undefined && input.nome !== rule.nome) identity.nome = input.nome;
  if (input.tipologia !== undefined && input.tipologia !== rule.tipologia) identity.tipologia = input.tipologia;
  const changes: Partial<VersionContent> = {};
  for (const k of CONTENT_KEYS) if (input[k] !== undefined) (changes as Record<string, unknown>)[k] = input[k];
  if (!Object.keys(identity).length && !Object.keys(changes).length) {
    throw new ValidationError([{ path: '', message: 'Nessuna modifica: indica almeno un campo da cambiare' }], 'Nessuna modifica da applicare');
  }
  const now = new Date();
  if (Object.keys(identity).length) {
    await trx('monitoring_regole').where({ id: rule.id }).update({ ...identity, updated_at: now });
    await audit(trx, codAzienda, actor, 'monitoring.rule.rename', rule.id, { from: { nome: rule.nome, tipologia: rule.tipologia }, to: identity });
  }
  if (!Object.keys(changes).length) return { rule: { ...rule, ...identity }, draft: (await ruleVersions(trx, rule.id)).find((v) => v.stato === 'bozza') ?? null };

  const versions = await ruleVersions(trx, rule.id);
  let draft = versions.find((v) => v.stato === 'bozza');
  if (!draft) {
    const base = versions.find((v) => v.stato === 'attiva') ?? versions[0]!;
    [draft] = await trx('monitoring_regole_versioni')
      .insert(versionInsert(codAzienda, rule.id, versions[0]!.versione + 1, base, actor, base.id)).returning('*') as VersionRow[];
    await audit(trx, codAzienda, actor, 'monitoring.rule.draft', rule.id, { versione: draft!.versione, basata_su: base.versione });
  }
  const [updated] = await trx('monitoring_regole_versioni').where({ id: draft!.id })
    .update({ ...changes, ...(changes.condizione ? { condizione: JSON.stringify(changes.condizione) } : {}), updated_by: actor.id, updated_at: now })
    .returning('*') as VersionRow[];
  await trx('monitoring_regole').where({ id: rule.id }).update({ updated_at: now });
  await audit(trx, codAzienda, actor, 'monitoring.rule.update', rule.id, { versione: updated!.versione, campi: Object.keys(changes), ...changes });
  return { rule: { ...rule, ...identity }, draft: updated! };
}

/** Takes the version in force out of evaluation (the rule keeps its draft, if any, and its alerts). */
export async function retireRule(trx: Knex.Transaction, codAzienda: string, actor: RuleActor, idOrCode: string, motivazione: string) {
  const rule = await lockedRule(trx, codAzienda, idOrCode);
  const active = (await ruleVersions(trx, rule.id)).find((v) => v.stato === 'attiva');
  if (!active) throw conflict('NO_ACTIVE_VERSION', 'La regola non ha una versione in vigore da ritirare');
  const now = new Date();
  await trx('monitoring_regole_versioni').where({ id: active.id })
    .update({ stato: 'ritirata', retired_by: actor.id, retired_at: now, motivazione_ritiro: motivazione, updated_at: now });
  await trx('monitoring_regole').where({ id: rule.id }).update({ updated_at: now });
  await audit(trx, codAzienda, actor, 'monitoring.rule.retire', rule.id, { versione: active.versione, from: 'attiva', to: 'ritirata', motivazione });
  return rule;
}

/** Discards the draft (it was never evaluated); the audit event keeps what it held. */
export async function discardDraft(trx: Knex.Transaction, codAzienda: string, actor: RuleActor, idOrCode: string) {
  const rule = await lockedRule(trx, codAzienda, idOrCode);
  const versions = await ruleVersions(trx, rule.id);
  const draft = versions.find((v) => v.stato === 'bozza');
  if (!draft) throw conflict('NO_DRAFT', 'La regola non ha una bozza da scartare');
  if (versions.length === 1) throw conflict('ONLY_VERSION', 'La bozza è l\'unica versione della regola: modificala invece di scartarla');
  await trx('monitoring_regole_versioni').where({ id: draft.id }).delete();
  await audit(trx, codAzienda, actor, 'monitoring.rule.discard', rule.id, {
    versione: draft.versione, condizione: draft.condizione, punteggio: draft.punteggio, ambito: draft.ambito, livello: draft.livello,
  });
  return rule;
}

/**
 * Puts a draft in force: the previous version in force is retired in the same transaction. This
 * is the step the release-gate workflow takes once its gates pass (docs/monitoring.md); it checks
 * nothing about the gates itself, only that the version is the rule's draft.
 */
export async function activateRuleVersion(trx: Knex.Transaction, p: { codAzienda: string; versionId: string; actor: RuleActor; motivazione?: string }) {
  const version = await trx('monitoring_regole_versioni').where({ id: p.versionId, cod_azienda: p.codAzienda }).first() as VersionRow | undefined;
  if (!version) throw notFound('Versione della regola');
  const rule = await lockedRule(trx, p.codAzienda, version.regola_id);
  const current = await trx('monitoring_regole_versioni').where({ id: p.versionId }).forUpdate().first() as VersionRow;
  if (current.stato !== 'bozza') throw conflict('NOT_A_DRAFT', `La versione v${current.versione} non è una bozza: è ${current.stato}`, { stato: current.stato });
  const now = new Date();
  const previous = (await ruleVersions(trx, rule.id)).find((v) => v.stato === 'attiva');
  if (previous) {
    await trx('monitoring_regole_versioni').where({ id: previous.id })
      .update({ stato: 'ritirata', retired_by: p.actor.id, retired_at: now, motivazione_ritiro: `Sostituita dalla versione ${current.versione}`, updated_at: now });
  }
  const [active] = await trx('monitoring_regole_versioni').where({ id: current.id })
    .update({ stato: 'attiva', activated_by: p.actor.id, activated_at: now, updated_at: now }).returning('*') as VersionRow[];
  await trx('monitoring_regole').where({ id: rule.id }).update({ updated_at: now });
  await audit(trx, p.codAzienda, p.actor, 'monitoring.rule.activate', rule.id, {
    versione: current.versione, from: 'bozza', to: 'attiva', ...(previous ? { ritirata: previous.versione } : {}), ...(p.motivazione ? { motivazione: p.motivazione } : {}),
  });
  return active!;
}
