import type { Knex } from 'knex';
import { SYSTEM_ACTOR } from '../lists/lists.repo';
import { activateRuleVersion, createRule, type RuleActor } from '../rules/rules.commands';
import type { ModelloRegola } from './template.types';

/**
 * Creates a tenant's rules from templates, in the caller's tenant transaction, through the rules'
 * own commands (each with its audit event). A template whose code the tenant already uses is left
 * alone: the tenant's rule, tuned or not, is theirs. Drafts by default (backtest and release as
 * any rule); `attiva` is for a demo tenant the system seeds, whose templates go straight into force
 * with an activation event that says so (no backtest, no second person: there is nothing to compare).
 */
export interface InstallOptions {
  attiva: boolean;
  /** Who enables them; null: the system. */
  cod_utente: string | null;
  /** Only these templates (codes); all otherwise. */
  only?: readonly string[];
}

export interface InstallResult { creati: string[]; saltati: string[] }

export const DEMO_ACTIVATION_REASON = 'Modello standard messo in vigore dal sistema per il tenant dimostrativo, senza backtest né seconda approvazione';

async function actorOf(trx: Knex.Transaction, codUtente: string | null): Promise<RuleActor> {
  if (!codUtente) return { id: SYSTEM_ACTOR, username: SYSTEM_ACTOR };
  const user = await trx('utenti').where({ cod_utente: codUtente }).first('username') as { username: string } | undefined;
  return { id: codUtente, username: user?.username ?? codUtente };
}

/** The rule a template becomes (the API's creation input). */
export const ruleInputOf = (m: ModelloRegola) => ({
  cod_regola: m.cod_regola, nome: m.nome, tipologia: m.tipologia, descrizione: m.descrizione, condizione: m.condizione,
  ambito: m.ambito, livello: m.livello, punteggio: m.punteggio, esito: m.esito, finestra_dedup_giorni: m.finestra_dedup_giorni,
  indicatori: [...m.indicatori],
});

export async function installFrom(
  modelli: readonly ModelloRegola[], trx: Knex.Transaction, codAzienda: string, opts: InstallOptions,
): Promise<InstallResult> {
  const wanted = opts.only ? modelli.filter((m) => opts.only!.includes(m.cod_regola)) : modelli;
  const existing = new Set((await trx('monitoring_regole').where({ cod_azienda: codAzienda })
    .whereIn('cod_regola', wanted.map((m) => m.cod_regola)).pluck('cod_regola')) as string[]);
  const actor = await actorOf(trx, opts.cod_utente);
  const out: InstallResult = { creati: [], saltati: [] };
  for (const m of wanted) {
    if (existing.has(m.cod_regola)) { out.saltati.push(m.cod_regola); continue; }
    const { draft } = await createRule(trx, codAzienda, actor, ruleInputOf(m));
    if (opts.attiva) await activateRuleVersion(trx, { codAzienda, versionId: draft.id, actor, motivazione: DEMO_ACTIVATION_REASON });
    out.creati.push(m.cod_regola);
  }
  return out;
}
