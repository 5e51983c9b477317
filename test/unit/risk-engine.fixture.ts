import { DEFAULT_FACTORS, DEFAULT_RULES, DEFAULT_THRESHOLDS } from '../../src/domains/risk/engine/engine.default-model';
import { completeProfile } from '../../src/domains/risk/engine/engine.profile';
import type { RegolaCaricata } from '../../src/domains/risk/engine/engine.score';
import type { ProfiloRischio, Soglia, VersioneRegole } from '../../src/domains/risk';

/** The default model in memory, as loadRuleSet would give it (ids are the codes): the engine's unit tests score against it. */
export function defaultVersion(over: { regole?: RegolaCaricata[] } = {}): VersioneRegole {
  const fam = new Map(DEFAULT_FACTORS.map((f) => [f.codice, f.famiglia]));
  const regole: RegolaCaricata[] = over.regole ?? DEFAULT_RULES.map((r, i) => ({
    id: r.codice, versione_id: 'v1', fattore_id: `f-${r.fattore}`, fattore_codice: r.fattore, famiglia: fam.get(r.fattore)!, codice: r.codice, nome: r.nome,
    descrizione: r.descrizione, condizione: r.condizione, punti: r.punti, classe_minima: r.classe_minima ?? null, attiva: true, ordine: i,
  }));
  return { id: 'v1', versione: 1, stato: 'active', descrizione: 'default', basata_su: null, regole };
}

export const defaultThresholds = (): Soglia[] => DEFAULT_THRESHOLDS.map((s) => ({ id: s.classe, ...s }));

export const profile = (partial: Parameters<typeof completeProfile>[0] = {}): ProfiloRischio =>
  completeProfile({ cliente: { tipo_soggetto: 'persona_fisica' }, geografia: { nazionalita: 'IT', paese_residenza: 'IT' }, canale: { canale: 'sportello' }, ...partial });
