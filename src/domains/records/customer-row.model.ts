import { RecordsModel } from './records.model-base';

/**
 * A subject of the registry (anagrafe) as a row: one real person or company of the tenant. The
 * models related to a subject (a link's ends, a relationship's holders) name this class, and the
 * customer file's graph (Customer) extends it: so the related models never import Customer back.
 */
export class CustomerRow extends RecordsModel {
  static override tableName = 'anagrafe';
  static override idColumn = ['cod_azienda', 'cod_anagrafe'];

  static override dateColumns = ['data_nascita', 'data_onboarding', 'ruolo_dal', 'ruolo_al'];

  declare cod_anagrafe: string;
  declare tipo_soggetto: string;
  declare denominazione: string;
  declare nome: string | null;
  declare cognome: string | null;
  declare codice_fiscale: string | null;
  declare partita_iva: string | null;
  declare codice_fiscale_estero: string | null;
  declare paese_fiscale: string | null;
  declare chiave_fiscale: string | null;
  declare data_nascita: string | null;
  declare luogo_nascita: string | null;
  declare nazionalita: string | null;
  declare paese_residenza: string | null;
  declare indirizzo: Record<string, unknown> | null;
  declare email: string | null;
  declare telefono: string | null;
  declare attivita: string | null;
  /** The customer's code in the source system (unique per tenant): imports of relationships and movements name it by this. */
  declare codice_esterno: string | null;
  /** Economic sector, ATECO code (ateco.ts). */
  declare ateco: string | null;
  declare professione: string | null;
  /** When the customer relationship began. */
  declare data_onboarding: string | null;
  /** The declared profile (records.declared.ts): expected monthly volume in euro and expected cash use. */
  declare volume_mensile_atteso_eur: number | null;
  declare uso_contanti_atteso: string | null;
  declare pep: boolean;
  declare classe_rischio: string | null;
  declare punteggio_rischio: number | null;
  declare stato: string;
  declare ruolo: string;
  declare onboarding_case_id: string | null;
  declare dati: Record<string, unknown>;
  declare versione: number;
  declare created_by: string;
  declare updated_by: string | null;
  declare eliminato_at: Date | null;
  declare eliminato_da: string | null;
  declare motivo_eliminazione: string | null;
  declare created_at: Date;
  declare updated_at: Date;
}
