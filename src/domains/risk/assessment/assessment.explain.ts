import type { Contributo } from '../risk.types';
import type { AssessmentRow } from './assessment.repo';
import { CLASSE_LABELS } from './assessment.labels';

interface StoredProfile {
  dati?: unknown; aggregati?: Record<string, number | null>; oggi?: string; classe_da_punteggio?: string;
  versione?: { id: string; versione: number }; soglie?: { classe: string; punteggio_min: number; livello_cdd: string; revisione_mesi: number }[];
}

/**
 * How the assessment's score came about, from what the calculation stored on the row (never a
 * new calculation: the rules may have changed since): each contribution with the data it read,
 * its rule and the rule set's version, the floor that applied, the thresholds in force and the
 * sum. The page's waterfall chart reads `passi` (running total after each contribution).
 */
export function explainAssessment(row: AssessmentRow) {
  const stored = (row.profilo ?? {}) as StoredProfile;
  const contributi = (row.contributi ?? []) as Contributo[];
  const somma = contributi.reduce((s, c) => s + c.punti, 0);
  let running = 0;
  const passi = contributi.map((c) => ({ codice: c.codice, nome: c.nome, punti: c.punti, da: running, a: (running += c.punti) }));
  const versione = stored.versione ?? (row.versione_id ? { id: row.versione_id, versione: null } : null);
  return {
    cod_valutazione: row.cod_valutazione,
    cod_anagrafe: row.cod_anagrafe,
    stato: row.stato,
    calcolata_il: stored.oggi ?? null,
    versione,
    contributi: contributi.map((c) => ({
      regola_id: c.regola_id, regola: c.codice, nome: c.nome, famiglia: c.famiglia, fattore: c.fattore, punti: c.punti,
      classe_minima: c.classe_minima, versione_regole: versione?.versione ?? null, letti: c.letti,
    })),
    somma,
    punteggio: row.punteggio,
    // A score below zero counts as zero for the class: the sum says what the rules added up to.
    classe_da_punteggio: stored.classe_da_punteggio ?? null,
    pavimento: row.pavimento ? { ...row.pavimento, classe_label: CLASSE_LABELS[row.pavimento.classe] } : null,
    classe_calcolata: row.classe_calcolata,
    override: row.override_classe ? {
      classe: row.override_classe, motivo: row.override_motivo, scadenza: row.override_scadenza, scaduto: row.override_scaduto,
      proposto_da: row.override_by, confermato_da: row.override_confirmed_by,
    } : null,
    classe_effettiva: row.classe_effettiva,
    soglie: stored.soglie ?? [],
    aggregati: stored.aggregati ?? {},
    dati: stored.dati ?? null,
    passi,
  };
}
