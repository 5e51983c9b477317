import { aggregateKey, compileCondition, type CondizioneCompilata } from '../../../kit/conditions';
import type { Aggregato } from '../../../kit/conditions/condition.types';
import { CLASSI, type Classe, type Contributo, type ProfiloRischio, type Punteggio, type Regola, type Soglia, type VersioneRegole } from '../risk.types';
import { riskLists } from './engine.lists';

/**
 * The engine's pure core: a profile and its movement aggregates through a rule set's rules
 * into a Punteggio. The score is the sum of the contributions of the rules whose condition is
 * true, each kept with what its condition read; the class comes from the policy thresholds,
 * then the floors of the rules that fired raise it (EBA/GL/2021/02 para 3.6: the cases the
 * law makes high stay high whatever else scores low).
 */

/** A rule as the engine loads it: with its factor's code, which names the contribution. */
export type RegolaCaricata = Regola & { fattore_codice?: string };

export const classOrdinal = (c: Classe): 1 | 2 | 3 | 4 => (CLASSI.indexOf(c) + 1) as 1 | 2 | 3 | 4;
export const higherClass = (a: Classe, b: Classe): Classe => (classOrdinal(a) >= classOrdinal(b) ? a : b);

/** The class of a score: the highest threshold at or below it (below every threshold: basso). */
export function classForScore(soglie: readonly Soglia[], score: number): Classe {
  let best: Soglia | undefined;
  for (const s of soglie) if (s.punteggio_min <= score && (!best || s.punteggio_min > best.punteggio_min)) best = s;
  return best?.classe ?? 'basso';
}

/** The policy consequences of a class (CDD level, review months, approval level). */
export function policyFor(soglie: readonly Soglia[], classe: Classe): Soglia {
  const s = soglie.find((x) => x.classe === classe);
  if (!s) throw new Error(`no threshold for class ${classe}`);
  return s;
}

/**
 * The yearly movement total the impact band reads (last 365 days, both directions): every
 * scoring asks the loader for it, whatever the rules read.
 */
export const IMPACT_AGGREGATE: Aggregato = { fn: 'sum', finestra_giorni: 365 };
export const IMPACT_KEY = aggregateKey(IMPACT_AGGREGATE);

/** Impact of the 4×4 matrix: the band of the last year's movement total in EUR. */
export function impactForVolume(total: number | null | undefined): 1 | 2 | 3 | 4 {
  const v = total ?? 0;
  if (v < 50_000) return 1;
  if (v < 250_000) return 2;
  if (v < 1_000_000) return 3;
  return 4;
}

/** A rule set's active rules with their conditions compiled (compileCondition), in the version's order. */
export interface RegoleCompilate { regole: readonly { regola: RegolaCaricata; condizione: CondizioneCompilata }[] }

/** What a compiled rule set was compiled from: its active rules' ids and conditions, in order. */
function signature(versione: VersioneRegole): string {
  return JSON.stringify(versione.regole.filter((r) => r.attiva).map((r) => [r.id, r.condizione]));
}

/** Compiled rule sets by version id, with what they were compiled from. */
const compiledById = new Map<string, { signature: string; compiled: RegoleCompilate }>();
/** The same loaded object again (every customer of a batch, a chunk's batches): no check at all. */
const compiledByObject = new WeakMap<VersioneRegole, RegoleCompilate>();
const MAX_CACHED_VERSIONS = 64;

/**
 * The rule set's conditions compiled once per version (cached by version id in this process):
 * scoring a customer then walks no tree, splits no path and builds no set. A version loaded
 * again (an assessment loads it per customer) finds its compiled conditions by id; they are
 * reused when its active rules' ids and conditions are the ones compiled (a draft's rules
 * change under the same id; comparing costs tens of microseconds, once per loaded version).
 * Points, floors and names are read from the version given. A loaded version is not to be
 * changed in place after scoring with it (nothing does).
 */
export function compiledRules(versione: VersioneRegole): RegoleCompilate {
  const same = compiledByObject.get(versione);
  if (same) return same;
  const sig = signature(versione);
  const cached = compiledById.get(versione.id);
  let compiled: RegoleCompilate;
  if (cached?.signature === sig) {
    const regole = (versione.regole as RegolaCaricata[]).filter((r) => r.attiva);
    compiled = { regole: regole.map((regola, i) => ({ regola, condizione: cached.compiled.regole[i]!.condizione })) };
  } else {
    compiled = { regole: (versione.regole as RegolaCaricata[]).filter((r) => r.attiva).map((regola) => ({ regola, condizione: compileCondition(regola.condizione) })) };
    compiledById.delete(versione.id);
    if (compiledById.size >= MAX_CACHED_VERSIONS) compiledById.delete(compiledById.keys().next().value!);
    compiledById.set(versione.id, { signature: sig, compiled });
  }
  compiledByObject.set(versione, compiled);
  return compiled;
}

export function scoreProfile(versione: VersioneRegole, soglie: readonly Soglia[], profilo: ProfiloRischio,
  aggregati: Record<string, number | null>, oggi: string): Punteggio {
  const ctx = { dati: profilo as unknown as Record<string, unknown>, aggregati, liste: riskLists(), oggi };
  const contributi: Contributo[] = [];
  for (const { regola: r, condizione } of compiledRules(versione).regole) {
    const esito = condizione.evaluate(ctx);
    if (!esito.vero) continue;
    contributi.push({
      regola_id: r.id, codice: r.codice, nome: r.nome, famiglia: r.famiglia, fattore: r.fattore_codice ?? r.fattore_id,
      punti: r.punti, classe_minima: r.classe_minima, letti: esito.letti,
    });
  }
  const punteggio = contributi.reduce((s, c) => s + c.punti, 0);
  const classe_da_punteggio = classForScore(soglie, punteggio);
  // The highest floor among the rules that fired; it is recorded only when it raised the class.
  let pavimento: Punteggio['pavimento'] = null;
  for (const c of contributi) {
    if (c.classe_minima && classOrdinal(c.classe_minima) > classOrdinal(pavimento?.classe ?? classe_da_punteggio)) {
      pavimento = { regola: c.codice, classe: c.classe_minima };
    }
  }
  const classe = pavimento?.classe ?? classe_da_punteggio;
  return {
    punteggio, classe, classe_da_punteggio, pavimento, contributi,
    versione: { id: versione.id, versione: versione.versione },
    probabilita: classOrdinal(classe),
    impatto: impactForVolume(aggregati[IMPACT_KEY]),
    aggregati,
  };
}
