import type { Knex } from 'knex';
import { describeMonitoringCondition } from '../monitoring.conditions';
import { TIPOLOGIA_LABELS } from '../monitoring.typologies';
import { MODELLI_MONITORAGGIO } from './templates.catalog';
import type { TemplateItem } from './templates.schemas';

interface RuleOfTemplate { id: string; cod_regola: string; nome: string; attiva_versione: number | null; bozza_versione: number | null }

/** Every template with the tenant's rule of the same code (enabled from it, or the tenant's own by that code), if any. */
export async function templatesOfTenant(trx: Knex.Transaction, codAzienda: string): Promise<TemplateItem[]> {
  const rules = await trx('monitoring_regole as r').where('r.cod_azienda', codAzienda)
    .whereIn('r.cod_regola', MODELLI_MONITORAGGIO.map((m) => m.cod_regola))
    .select('r.id', 'r.cod_regola', 'r.nome',
      trx.raw("(select max(versione) from monitoring_regole_versioni v where v.regola_id = r.id and v.stato = 'attiva') as attiva_versione"),
      trx.raw("(select max(versione) from monitoring_regole_versioni v where v.regola_id = r.id and v.stato = 'bozza') as bozza_versione")) as RuleOfTemplate[];
  const byCode = new Map(rules.map((r) => [r.cod_regola, r]));
  return MODELLI_MONITORAGGIO.map((m) => {
    const r = byCode.get(m.cod_regola);
    return {
      cod_regola: m.cod_regola, nome: m.nome, tipologia: m.tipologia, tipologia_label: TIPOLOGIA_LABELS[m.tipologia], descrizione: m.descrizione,
      condizione: m.condizione as Record<string, unknown>, frase: describeMonitoringCondition(m.condizione), ambito: m.ambito, livello: m.livello,
      punteggio: m.punteggio, esito: m.esito, finestra_dedup_giorni: m.finestra_dedup_giorni, indicatori: [...m.indicatori],
      regola: r ? { id: r.id, nome: r.nome, attiva_versione: r.attiva_versione === null ? null : Number(r.attiva_versione), bozza_versione: r.bozza_versione === null ? null : Number(r.bozza_versione) } : null,
    };
  });
}
