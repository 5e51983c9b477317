import type { Condizione } from '../../../kit/conditions';
import type { Tipologia } from '../monitoring.typologies';

/**
 * A standard typology's rule as it ships (docs/monitoring.md, "Templates"): a rule version's data
 * without ids. A tenant enables it as a draft v1 of a rule of its own (then backtests and releases
 * it like any other); the benchmarks give it ids to replay it (templateRuleVersions).
 */
export interface ModelloRegola {
  /** The rule's code once enabled: the typology's code, so a tenant has at most one rule from each template. */
  cod_regola: string;
  nome: string;
  tipologia: Exclude<Tipologia, 'altro'>;
  descrizione: string;
  condizione: Condizione;
  ambito: 'evento' | 'giornaliero';
  livello: 'cliente' | 'rapporto';
  punteggio: number;
  esito: 'alert' | 'osserva';
  finestra_dedup_giorni: number;
  /** UIF sub-index codes (data/reference/uif-indicatori-2023.json). */
  indicatori: readonly string[];
}
