import type { Knex } from 'knex';
import { isUuid } from '../../../kit/ids';
import { runList, tenantScope } from '../../../kit/list';
import type { Condizione } from '../../../kit/conditions';
import { monitoringRulesList } from './rules.list';
import type { ListRulesQuery, RuleVersionRecord } from './rules.schemas';

/** Reads of monitoring rules, inside withTenant (row-level security keeps them to the tenant). */

export interface RuleRow {
  id: string; cod_azienda: string; cod_regola: string; nome: string; tipologia: string; created_by: string; created_at: Date; updated_at: Date;
}
export type VersionRow = Omit<RuleVersionRecord, 'created_at' | 'updated_at' | 'activated_at' | 'retired_at' | 'condizione'> & {
  regola_id: string; cod_azienda: string; condizione: Condizione;
  created_at: Date; updated_at: Date; activated_at: Date | null; retired_at: Date | null;
};

export const listRules = (trx: Knex.Transaction, codAzienda: string, q: ListRulesQuery) =>
  runList<Record<string, unknown>>(trx, monitoringRulesList, tenantScope(codAzienda), q);

/** A rule by its id or its code (the pages and the API accept either); undefined when not the tenant's. */
export async function findRule(trx: Knex.Transaction, codAzienda: string, idOrCode: string, forUpdate = false): Promise<RuleRow | undefined> {
  const q = trx('monitoring_regole').where('cod_azienda', codAzienda)
    .andWhere(isUuid(idOrCode) ? { id: idOrCode } : { cod_regola: idOrCode }).first();
  return (forUpdate ? q.forUpdate() : q) as Promise<RuleRow | undefined>;
}

/** A rule's versions, newest first. */
export async function ruleVersions(trx: Knex.Transaction, regolaId: string): Promise<VersionRow[]> {
  return trx('monitoring_regole_versioni').where({ regola_id: regolaId }).orderBy('versione', 'desc') as Promise<VersionRow[]>;
}

/** The rule with its version in force, its draft and every version (newest first). */
export async function ruleDetail(trx: Knex.Transaction, codAzienda: string, idOrCode: string) {
  const rule = await findRule(trx, codAzienda, idOrCode);
  if (!rule) return undefined;
  const versioni = await ruleVersions(trx, rule.id);
  return {
    ...rule,
    attiva: versioni.find((v) => v.stato === 'attiva') ?? null,
    bozza: versioni.find((v) => v.stato === 'bozza') ?? null,
    versioni,
  };
}

/** One version in force of a rule, as the evaluation paths read it. */
export interface ActiveRuleVersion {
  versione_id: string; regola_id: string; cod_regola: string; nome: string; tipologia: string; versione: number;
  condizione: Condizione; ambito: 'evento' | 'giornaliero'; livello: 'cliente' | 'rapporto'; punteggio: number; esito: 'alert' | 'osserva';
  finestra_dedup_giorni: number; indicatori: string[];
}

/** Every version in force of the tenant's rules (the evaluation paths and the engine's sync load them), by code. */
export async function activeRuleVersions(trx: Knex.Transaction, codAzienda: string): Promise<ActiveRuleVersion[]> {
  return trx('monitoring_regole_versioni as v').join('monitoring_regole as r', 'r.id', 'v.regola_id')
    .where('v.cod_azienda', codAzienda).andWhere('v.stato', 'attiva')
    .orderBy('r.cod_regola')
    .select('v.id as versione_id', 'r.id as regola_id', 'r.cod_regola', 'r.nome', 'r.tipologia', 'v.versione', 'v.condizione', 'v.ambito',
      'v.livello', 'v.punteggio', 'v.esito', 'v.finestra_dedup_giorni', 'v.indicatori') as Promise<ActiveRuleVersion[]>;
}
