import { createHash } from 'node:crypto';
import type { Condizione } from '../../../kit/conditions';
import {
  prepareRules, RegolaNonValidaError, type CodiceTipologia, type ListeRiferimento, type RegolePreparate, type VersioneRegola,
} from '../engine';

/**
 * The rule versions as the evaluation paths hand them to the engine (docs/monitoring.md). The
 * records keep a version's outcome as `alert` or `osserva` (evaluated and recorded, never
 * alerting); the engine knows `alert` and `blocco`: an `osserva` rule is given to the engine as
 * `alert` and its hits are dropped here, so its outcome is still in every decision.
 *
 * One malformed version (a list that no longer exists, a condition the engine refuses) must not
 * stop the others: it is left out of the set and named in `escluse`, and each decision records it
 * as an outcome that could not be evaluated.
 */

/** What a version holds, as the rules' table has it (the versions in force, or a draft in a backtest). */
export interface RuleVersionData {
  versione_id: string;
  cod_regola: string;
  nome: string;
  tipologia: string;
  versione: number;
  condizione: Condizione;
  ambito: 'evento' | 'giornaliero';
  livello: 'cliente' | 'rapporto';
  punteggio: number;
  esito: string;
  finestra_dedup_giorni: number;
  indicatori: readonly string[];
}

export interface EsclusaRegola { versione_id: string; cod_regola: string; versione: number; tipologia: string; motivo: string }

export interface RuleSet {
  regole: RegolePreparate;
  /** Version ids whose hits raise nothing (esito `osserva`). */
  osserva: ReadonlySet<string>;
  escluse: readonly EsclusaRegola[];
  /** Names of the versions by id (the trace pages). */
  nomi: ReadonlyMap<string, string>;
}

export function toEngineVersion(v: RuleVersionData): VersioneRegola {
  return {
    id: v.versione_id, cod_regola: v.cod_regola, versione: v.versione, nome: v.nome, tipologia: v.tipologia as CodiceTipologia,
    indicatori: [...v.indicatori], ambito: v.ambito, livello: v.livello, condizione: v.condizione, punteggio: v.punteggio,
    esito: v.esito === 'blocco' ? 'blocco' : 'alert',
    // A window of 0 days (every hit its own alert) is the engine's window of one day.
    finestra_dedup_giorni: Math.max(1, v.finestra_dedup_giorni),
  };
}

function prepareTolerant(versions: RuleVersionData[], liste: ListeRiferimento): { regole: RegolePreparate; escluse: EsclusaRegola[] } {
  let remaining = versions;
  const escluse: EsclusaRegola[] = [];
  // Each pass either prepares the set or leaves out the version it names: at most one pass per version.
  for (;;) {
    try {
      return { regole: prepareRules(remaining.map(toEngineVersion), liste), escluse };
    } catch (err) {
      if (!(err instanceof RegolaNonValidaError)) throw err;
      const bad = remaining.find((v) => v.versione_id === err.versione_id);
      if (!bad) throw err;
      escluse.push({
        versione_id: bad.versione_id, cod_regola: bad.cod_regola, versione: bad.versione, tipologia: bad.tipologia,
        motivo: err.problemi.map((p) => `${p.path.join('.') || 'condizione'}: ${p.message}`).join('; '),
      });
      remaining = remaining.filter((v) => v !== bad);
    }
  }
}

const CACHE_SIZE = 200;
const cache = new Map<string, RuleSet>();

/**
 * The prepared set for these versions and lists, remembered by their identities (version ids and
 * list versions: both change whenever their content does; a draft's content with `drafts`), so real
 * time prepares a tenant's set once per change, not once per event.
 */
export function ruleSetFor(codAzienda: string, versions: readonly RuleVersionData[], liste: ListeRiferimento, opts: { drafts?: boolean } = {}): RuleSet {
  // A version in force never changes; a draft does under the same id, so a set of drafts is known by their content too.
  const id = (v: RuleVersionData) => (opts.drafts ? `${v.versione_id}:${versionHash(v)}` : v.versione_id);
  const key = [codAzienda, ...versions.map(id).sort(), '|', ...Object.entries(liste).map(([n, l]) => `${n}=${l.versione}`).sort()].join(',');
  const hit = cache.get(key);
  if (hit) { cache.delete(key); cache.set(key, hit); return hit; }
  const { regole, escluse } = prepareTolerant([...versions], liste);
  const set: RuleSet = {
    regole, escluse,
    osserva: new Set(versions.filter((v) => v.esito === 'osserva').map((v) => v.versione_id)),
    nomi: new Map(versions.map((v) => [v.versione_id, v.nome])),
  };
  cache.set(key, set);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return set;
}

/** JSON with sorted keys: the same content always gives the same text. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * A version's content hash: what it evaluates (condition, scope, level, score, outcome, dedup
 * window, indicators). The release gate compares the backtested hash with the draft's current one,
 * so an edit after the backtest needs a new backtest.
 */
export function versionHash(v: Pick<RuleVersionData, 'condizione' | 'ambito' | 'livello' | 'punteggio' | 'esito' | 'finestra_dedup_giorni' | 'indicatori'>): string {
  const content = {
    condizione: v.condizione, ambito: v.ambito, livello: v.livello, punteggio: v.punteggio, esito: v.esito,
    finestra_dedup_giorni: v.finestra_dedup_giorni, indicatori: [...v.indicatori].sort(),
  };
  return createHash('sha256').update(canonicalJson(content)).digest('hex');
}
