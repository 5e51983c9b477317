import {
  aggregateKey, compileCondition, DEFAULT_HISTORY_DAYS, lastYearPeriod, loadedAggregate, type Aggregato, type ConditionIssue,
  type CondizioneCompilata,
} from '../../../kit/conditions';
import type { ListeNormalizzate } from './engine.filters';
import { validateMonitoringCondition } from './engine.fields';
import type { ListeRiferimento, VersioneRegola } from './engine.types';

/**
 * A rule set prepared for evaluation: each version's condition compiled once, the aggregates each
 * rule can read (for the evidence of a hit), the named lists upper-cased once. Prepare it once per
 * set of active versions and lists (the engine's copy changes when a rule is activated or a list
 * gets a new version) and evaluate any number of events and days with it.
 */

export interface RegolaPreparata {
  versione: VersioneRegola;
  condizione: CondizioneCompilata;
  /** Every aggregate the condition can read, by the read's path (`aggregato:<key>`: its own key and its loaded one). */
  aggregati: ReadonlyMap<string, Aggregato>;
}

export interface RegolePreparate {
  readonly versioni: readonly VersioneRegola[];
  /** Rules evaluated on each event. */
  readonly evento: readonly RegolaPreparata[];
  /** Rules evaluated when a day closes. */
  readonly giornaliere: readonly RegolaPreparata[];
  readonly liste: ListeNormalizzate;
  readonly versioni_liste: Readonly<Record<string, string>>;
  readonly versioni_regole: Readonly<Record<string, number>>;
  /** Days of history before a point that the rules can read (windows plus histories): what a caller must load. */
  readonly giorni_storico: number;
  /**
   * The same for the event rules alone: what real time must load to evaluate one event (the daily
   * rules, often reading a year or two, are evaluated when the day closes, from a history of their own).
   */
  readonly giorni_storico_evento: number;
}

/** A version whose condition fails validation: the engine refuses the whole set (rules are validated when saved). */
export class RegolaNonValidaError extends Error {
  constructor(readonly versione_id: string, readonly problemi: ConditionIssue[]) {
    super(`rule version ${versione_id} is not valid: ${problemi.map((p) => `${p.path.join('.')}: ${p.message}`).join('; ')}`);
    this.name = 'RegolaNonValidaError';
  }
}

function lookback(a: Aggregato): number {
  if (a.fn === 'ratio_last_year') return lastYearPeriod(a).from;
  const history = a.fn === 'ratio_history' || a.fn === 'distinct_new_counterparties' ? a.storico_giorni ?? DEFAULT_HISTORY_DAYS : 0;
  return a.finestra_giorni + history;
}

export function prepareRules(versioni: readonly VersioneRegola[], liste: ListeRiferimento): RegolePreparate {
  const normalised: Record<string, ReadonlySet<string>> = {};
  const versioniListe: Record<string, string> = {};
  for (const [name, list] of Object.entries(liste)) {
    normalised[name] = new Set([...list.voci].map((v) => v.trim().toUpperCase()));
    versioniListe[name] = list.versione;
  }
  const evento: RegolaPreparata[] = [];
  const giornaliere: RegolaPreparata[] = [];
  const versioniRegole: Record<string, number> = {};
  let days = 1;
  let eventDays = 1;
  for (const v of versioni) {
    const issues = validateMonitoringCondition(v.condizione, Object.keys(liste));
    if (issues.length) throw new RegolaNonValidaError(v.id, issues);
    if (!(Number.isInteger(v.finestra_dedup_giorni) && v.finestra_dedup_giorni >= 1)) {
      throw new RegolaNonValidaError(v.id, [{ path: ['finestra_dedup_giorni'], message: 'Un numero intero di giorni, almeno 1' }]);
    }
    const aggregati = new Map<string, Aggregato>();
    const collect = (a: Aggregato) => {
      const loaded = loadedAggregate(a);
      aggregati.set(`aggregato:${aggregateKey(loaded)}`, loaded);
      aggregati.set(`aggregato:${aggregateKey(a)}`, loaded);
      days = Math.max(days, lookback(a));
      if (v.ambito === 'evento') eventDays = Math.max(eventDays, lookback(a));
    };
    const walk = (c: VersioneRegola['condizione']): void => {
      if ('tutti' in c) c.tutti.forEach(walk);
      else if ('almeno_uno' in c) c.almeno_uno.forEach(walk);
      else if ('non' in c) walk(c.non);
      else if ('aggregato' in c) collect(c.aggregato);
    };
    walk(v.condizione);
    const prepared = { versione: v, condizione: compileCondition(v.condizione), aggregati };
    (v.ambito === 'evento' ? evento : giornaliere).push(prepared);
    versioniRegole[v.id] = v.versione;
  }
  return { versioni, evento, giornaliere, liste: normalised, versioni_liste: versioniListe, versioni_regole: versioniRegole, giorni_storico: days, giorni_storico_evento: eventDays };
}
