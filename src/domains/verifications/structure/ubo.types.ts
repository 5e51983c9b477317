import type { TipoArco, TipoNodo } from '../verifications.vocabulary';

/**
 * The beneficial-owner engine's input and output (docs/ubo.md). The input is the corporate
 * structure of a KYB as a plain graph; the output is stored as it is in strutture_calcoli.risultato
 * and served by the API, hence its Italian snake_case keys. Percentages are 0..100 rounded to 4
 * decimals; `frazione` keeps the exact value as a fraction of 1 (e.g. "15/22"), and what is shown
 * is formatted from it (src/http/share-format.ts), so 25.0000125% never reads "25%".
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
  /** The same, exact, as a fraction of 1 (absent in results stored before it was kept). */
  frazione?: string | null;
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

/** The roles of the residual criterion (art. 20, comma 5): legal representation, administration, direction. */
export type ResidualRole = 'rappresentante_legale' | 'amministratore' | 'direttore';

/**
 * An entity whose representatives the residual criterion needs and the structure lacks: the
 * customer with no legal representative, administrator or director recorded, or a company holding
 * one of those roles in the customer with no natural person as its legal representative.
 */
export interface UboWarningSubject {
  nodo_id: string;
  denominazione: string;
  tipo: TipoNodo;
  codice_fiscale: string | null;
  cod_anagrafe: string | null;
  /** true for the customer; otherwise `ruoli` says which roles the entity holds in the customer. */
  cliente: boolean;
  ruoli: ResidualRole[];
  /** What is missing, in Italian, naming the entity and its codes. */
  messaggio: string;
}

export const UBO_WARNING_CODES = ['rappresentanti_mancanti'] as const;
export type UboWarningCode = (typeof UBO_WARNING_CODES)[number];

/** A gap the officer must fix before the result can be relied on: structured, so the API and the page say the same. */
export interface UboWarning {
  codice: UboWarningCode;
  /** The methods whose result it affects (those that fell back to the residual criterion). */
  metodi: UboMethod[];
  riferimento: string;
  messaggio: string;
  soggetti: UboWarningSubject[];
}

export interface UboResult {
  soglia: number;
  radice: { id: string; denominazione: string; tipo: TipoNodo };
  italiano: UboMethodResult;
  moltiplicativo: UboMethodResult;
  differenze: UboDifference[];
  quote: UboShare[];
  /** Anomalies of the structure, as sentences (holdings over 100%, nodes not linked to the customer). */
  avvertenze: string[];
  /** Gaps that leave the owners incomplete, with a code (absent in results stored before they were kept). */
  avvisi?: UboWarning[];
}

/** The structure cannot be computed (no root, more than one root...): the caller answers 409/422. */
export class UboInputError extends Error {}
