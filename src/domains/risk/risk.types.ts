import type { Condizione, Lettura } from '../../kit/conditions/condition.types';

/** The risk area's shared types: the contract between the engine, the assessments, the runs and the pages. */
export const CLASSI = ['basso', 'medio', 'medio_alto', 'alto'] as const;
export type Classe = (typeof CLASSI)[number];
export const FAMIGLIE = ['cliente', 'geografia', 'prodotto', 'canale'] as const;
export type Famiglia = (typeof FAMIGLIE)[number];
export type StatoVersione = 'draft' | 'active' | 'retired';
export type LivelloCdd = 'semplificata' | 'ordinaria' | 'rafforzata';
export type Approvazione = 'analyst' | 'co' | 'co_four_eyes';

export interface Fattore { id: string; codice: string; nome: string; famiglia: Famiglia; descrizione: string; attivo: boolean }

export interface Regola {
  id: string; versione_id: string; fattore_id: string; codice: string; nome: string; descrizione: string;
  famiglia: Famiglia; condizione: Condizione; punti: number; classe_minima: Classe | null; attiva: boolean; ordine: number;
}

export interface VersioneRegole {
  id: string; versione: number; stato: StatoVersione; descrizione: string; basata_su: string | null;
  regole: Regola[];
}

/** A policy threshold: from `punteggio_min` up the class applies, with its consequences. */
export interface Soglia { id: string; classe: Classe; punteggio_min: number; livello_cdd: LivelloCdd; revisione_mesi: number; approvazione: Approvazione; descrizione: string }

/**
 * What the rules read about a customer (or an applicant at onboarding): the same shape from
 * either source, so there is one way to score. Rules address it by dotted paths
 * (`cliente.pep`, `geografia.paesi`, `questionario.volume_annuo`).
 */
export interface ProfiloRischio {
  cliente: {
    cod_anagrafe: string | null;
    tipo_soggetto: 'persona_fisica' | 'ditta_individuale' | 'societa' | null;
    pep: boolean;
    /** PEP among the customer, its legal representatives and beneficial owners. */
    pep_collegati: boolean;
    attivita: string | null;
    settore: string | null;
    eta_anni: number | null;
    anzianita_giorni: number | null;
  };
  geografia: {
    nazionalita: string | null;
    paese_residenza: string | null;
    paese_fiscale: string | null;
    paesi_operativita: string[];
    /** Countries of the owners and links (nationality, residence). */
    paesi_collegati: string[];
    /** Every country above, deduplicated, upper case. */
    paesi: string[];
    /** Counterparty countries of the last 365 days' movements. */
    paesi_controparti: string[];
  };
  prodotto: {
    tipi_rapporto: string[];
    rapporti_attivi: number;
    wallet_self_hosted: number;
    wallet_sanzionati: number;
    crypto: boolean;
  };
  canale: { canale: 'online' | 'sportello' | null; intermediario: boolean };
  screening: { corrispondenze_aperte: number; corrispondenze_confermate: number };
  titolari: { numero: number; pep: boolean };
  dichiarato: { volume_annuo_eur: number | null };
  /** The KYC questionnaire's answers as given (question id → answer id), with their template version. */
  questionario: Record<string, unknown>;
}

export interface Contributo {
  regola_id: string; codice: string; nome: string; famiglia: Famiglia; fattore: string;
  punti: number; classe_minima: Classe | null; letti: Lettura[];
}

export interface Punteggio {
  punteggio: number;
  /** The class in force: the floor's when it is higher than the score's. */
  classe: Classe;
  classe_da_punteggio: Classe;
  pavimento: { regola: string; classe: Classe } | null;
  contributi: Contributo[];
  versione: { id: string; versione: number };
  /** 1..4 each, for the 4×4 matrix: probability from the class, impact from the yearly movement volume band. */
  probabilita: 1 | 2 | 3 | 4;
  impatto: 1 | 2 | 3 | 4;
  /** The movement aggregates the rules read, by canonical key. */
  aggregati: Record<string, number | null>;
}
