import type { Knex } from 'knex';
import type { Condizione } from '../../../kit/conditions/condition.types';
import type { Classe, ProfiloRischio, Punteggio } from '../risk.types';
import { modelId } from './engine.default-model';
import { explainContribution } from './engine.explain';
import { riskLists } from './engine.lists';
import { activeRuleSet, thresholds } from './engine.rulesets';
import { scoreProfile } from './engine.score';

export interface ApplicantFactor { codice: string; descrizione: string; punti: number }
export interface ApplicantScore {
  punteggio: Punteggio;
  score: number;
  classe: Classe;
  /** The contributions as the onboarding pages list them: factor code, sentence, points. */
  fattori: ApplicantFactor[];
  /** `rischio-v<versione>`: the rule set version that produced the result. */
  modello: string;
}

/** The named list a simple `intersects` rule compares with (to name only the matching countries). */
const listOf = (c: Condizione): string | undefined =>
  'campo' in c && c.op === 'intersects' && c.valore && typeof c.valore === 'object' && !Array.isArray(c.valore) ? (c.valore as { lista: string }).lista : undefined;

/**
 * Scores an applicant (onboarding, before any customer record or movement exists) with the
 * tenant's active rule set: the same engine and rules as for customers, with no movement
 * aggregates (rules over movements do not fire). Nothing is stored here: onboarding keeps the
 * result on its case.
 */
export async function scoreApplicant(trx: Knex.Transaction, codAzienda: string, profilo: ProfiloRischio, oggi: string): Promise<ApplicantScore> {
  const versione = await activeRuleSet(trx, codAzienda);
  const soglie = await thresholds(trx, codAzienda);
  const punteggio = scoreProfile(versione, soglie, profilo, {}, oggi);
  const byId = new Map(versione.regole.map((r) => [r.id, r]));
  const liste = riskLists();
  return {
    punteggio, score: punteggio.punteggio, classe: punteggio.classe, modello: modelId(versione.versione),
    fattori: punteggio.contributi.map((c) => {
      const regola = byId.get(c.regola_id);
      return { codice: c.fattore, descrizione: explainContribution(c, liste, regola ? listOf(regola.condizione) : undefined), punti: c.punti };
    }),
  };
}
