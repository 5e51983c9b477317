import type { Knex } from 'knex';
import type { RuleVersionData } from '../evaluation/rule-set';
import { MODELLI_MONITORAGGIO } from './templates.catalog';
import { installFrom, type InstallOptions, type InstallResult } from './templates.install';

/**
 * The standard typologies as templates (docs/monitoring.md, "Templates"): one rule per typology
 * of monitoring.typologies.ts except `altro`, tuned on the labelled year of the quality bench.
 * A tenant enables them (installTemplates, the API's `modello`, /monitoraggio/modelli) as drafts.
 */
export type { ModelloRegola } from './template.types';
export type { InstallOptions, InstallResult } from './templates.install';
export { DEMO_ACTIVATION_REASON, ruleInputOf } from './templates.install';
export { MODELLI_MONITORAGGIO, findModello } from './templates.catalog';

/** The templates as rule versions for the engine (benchmarks, tests): ids `tpl:<cod_regola>`, version 1. */
export function templateRuleVersions(): RuleVersionData[] {
  return MODELLI_MONITORAGGIO.map((m) => ({
    versione_id: `tpl:${m.cod_regola}`, cod_regola: m.cod_regola, nome: m.nome, tipologia: m.tipologia, versione: 1,
    condizione: m.condizione, ambito: m.ambito, livello: m.livello, punteggio: m.punteggio, esito: m.esito,
    finestra_dedup_giorni: m.finestra_dedup_giorni, indicatori: [...m.indicatori],
  }));
}

/**
 * Creates the tenant's rules from the templates (those whose code the tenant does not use yet),
 * as drafts, or in force for a demo tenant the system seeds (`attiva`, with an audit event saying so).
 */
export function installTemplates(trx: Knex.Transaction, codAzienda: string, opts: InstallOptions): Promise<InstallResult> {
  return installFrom(MODELLI_MONITORAGGIO, trx, codAzienda, opts);
}
