import type { TipoArco, TipoNodo } from '../verifications.vocabulary';

/**
 * The beneficial-owner engine's input and output (docs/ubo.md). The input is the corporate
 * structure of a KYB as a plain graph; the output is stored as it is in strutture_calcoli.risultato
 * and served by the API, hence its Italian snake_case keys. Percentages are 0..100 with at most
 * 4 decimals; `frazione` keeps the exact value of the multiplicative method (e.g. "15/22").
 */

export interface StructureNode {
  id: string;
  tipo: TipoNodo;
  denominazione: string;
  radice: boolean;
  codice_fiscale?: string | null;
  cod_anagrafe?: string | null;
}

/** "da holds/controls/acts for a". */
export interface StructureEdge {
  id: string;
  da: string;
  a: string;
  tipo: TipoArco;
  /** Share of the capital (partecipazione). */
  percentuale: number | null;
  /** Share of the votes when it differs from the capital. */
  percentuale_voti: number | null;
}

export interface StructureGraph { nodes: StructureNode[]; edges: StructureEdge[] }

export interface UboOptions {
  /** The ownership threshold in percent, exclusive ("superiore al 25 per cento"): 25 by law. */
  soglia: number;
}

export const UBO_RULES = [
  'proprieta_diretta', 'proprieta_indiretta',
  'controllo_maggioranza_voti', 'influenza_dominante', 'controllo_contrattuale',
  'trust_disponente', 'trust_trustee', 'trust_protettore', 'trust_beneficiario', 'trust_controllo',
  'rappresentante_legale', 'amministratore', 'direttore',
] as const;
export type UboRule = (typeof UBO_RULES)[number];

/** Which tier of the law found the owners: comma 2 (ownership), comma 3 (control), comma 5 (residual), trust (art. 22 c. 5). */
export type UboCriterion = 'proprieta' | 'controllo' | 'residuale' | 'trust' | 'nessuno';
export type UboMethod = 'italiano' | 'moltiplicativo';

/** One explained path: the edges (top-down), the names along it and the sentence that reads it. */
export interface UboPath {
  archi: string[];
  nodi: string[];
  testo: string;
  percentuale: number | null;
  frazione: string | null;
}

/** Why a person is an owner: the rule, its legal reference, the figure and the paths behind it. */
export interface UboReason {
  regola: UboRule;
  riferimento: string;
  percentuale: number | null;
  frazione: string | null;
  spiegazione: string;
  percorsi: UboPath[];
}

export interface UboOwner {
  nodo_id: string;
  denominazione: string;
  codice_fiscale: string | null;
  cod_anagrafe: string | null;
  /** The ownership the method attributes to the person in the customer (null when found by control or role). */
  percentuale: number | null;
  motivi: UboReason[];
}

export interface UboMethodResult {
  metodo: UboMethod;
  criterio: UboCriterion;
  titolari: UboOwner[];
  /** What the method saw and did not attribute (an uncontrolled holder, a public body, a cycle...), in Italian. */
  note: string[];
}

/** A person the two methods treat differently, with both readings. */
export interface UboDifference {
  nodo_id: string;
  denominazione: string;
  italiano: { titolare: boolean; percentuale: number | null; regole: UboRule[] };
  moltiplicativo: { titolare: boolean; percentuale: number | null; frazione: string | null; regole: UboRule[] };
  spiegazione: string;
}

/** Every natural person's share of the customer under both readings, owner or not (the comparison table). */
export interface UboShare {
  nodo_id: string;
  denominazione: string;
  italiano: number;
  moltiplicativo: number;
  moltiplicativo_frazione: string;
}

export interface UboResult {
  soglia: number;
  radice: { id: string; denominazione: string; tipo: TipoNodo };
  italiano: UboMethodResult;
  moltiplicativo: UboMethodResult;
  differenze: UboDifference[];
  quote: UboShare[];
  avvertenze: string[];
}

/** The structure cannot be computed (no root, more than one root...): the caller answers 409/422. */
export class UboInputError extends Error {}
