/** The subject types a question may be limited to (anagrafe.tipo_soggetto). */
export type KycSubjectType = 'persona_fisica' | 'ditta_individuale' | 'societa';
export const KYC_SUBJECT_TYPES = ['persona_fisica', 'ditta_individuale', 'societa'] as const;

export interface KycOption { valore: string; etichetta: string }

/**
 * One question of a KYC template. `paesi` takes a list of ISO 3166 alpha-2 codes; `numero`
 * a finite number (at least `min` when given).
 */
export interface KycQuestion {
  id: string;
  etichetta: string;
  tipo: 'scelta' | 'testo' | 'booleano' | 'numero' | 'paesi';
  obbligatoria: boolean;
  opzioni?: KycOption[];
  aiuto?: string;
  min?: number;
  /** Subject types the question applies to; absent: every type. */
  solo_per?: KycSubjectType[];
  /** Required only when another question has one of these answers. */
  richiesta_se?: { domanda: string; valori: (string | boolean)[] };
}

export interface KycTemplateDef {
  id: string;
  codice: string;
  versione: number;
  titolo: string;
  domande: KycQuestion[];
}
