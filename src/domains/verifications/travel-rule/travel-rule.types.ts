/** What screening a transfer leaves on its row (`travel_rule_transazioni.screening`), as the rules and the page read it. */

export type RuoloSoggetto = 'originatore' | 'beneficiario' | 'vasp_originatore' | 'vasp_beneficiario' | 'intermediario';
export type RuoloIndirizzo = 'originatore' | 'beneficiario';

export interface NameHit {
  list_name: string;
  entry_id: string;
  entry_name: string;
  score: number;
  /** At or above the tenant's match threshold: a sanctions hit. */
  alert: boolean;
}

export interface TravelRuleScreening {
  eseguito_at: string;
  soglie: { review: number; match: number };
  nomi: { ruolo: RuoloSoggetto; nome: string; tipo: 'person' | 'company'; hits: NameHit[] }[];
  indirizzi: { ruolo: RuoloIndirizzo; indirizzo: string; hit: boolean; entries: { list_name: string; entry_id: string; name: string }[] }[];
}
