import { Model, type RelationMappings } from 'objection';
import { RecordsModel } from './records.model-base';
import { CustomerVersion } from './customer-version.model';
import { Documento } from './documento.model';
import { Legame } from './legame.model';
import { Rapporto } from './rapporto.model';
import { RapportoSoggetto } from './rapporto-soggetto.model';

const KEY = ['anagrafe.cod_azienda', 'anagrafe.cod_anagrafe'];
const OWNER_LINKS = (q: { where: (column: string, value: string) => unknown }) => { q.where('legami.tipo', 'titolare_effettivo'); };

/**
 * A subject of the registry (anagrafe): one real person or company of the tenant. The relation
 * mappings are the customer file's graph: its relationships through their roles, its links both
 * ways, its beneficial owners (links of tipo 'titolare_effettivo'), its documents and versions.
 */
export class Customer extends RecordsModel {
  static override tableName = 'anagrafe';
  static override idColumn = ['cod_azienda', 'cod_anagrafe'];

  static override dateColumns = ['data_nascita', 'ruolo_dal', 'ruolo_al'];

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

  declare rapporti?: (Rapporto & { ruolo: string; dal: string; al: string | null })[];
  declare ruoli?: RapportoSoggetto[];
  declare legami_uscenti?: Legame[];
  declare legami_entranti?: Legame[];
  declare titolari?: Legame[];
  declare partecipazioni?: Legame[];
  declare documenti?: Documento[];
  declare versioni?: CustomerVersion[];

  static override get relationMappings(): RelationMappings {
    return {
      /** The relationships the subject has a role on (holder, co-holder, executor, ...), with the role. */
      rapporti: {
        relation: Model.ManyToManyRelation,
        modelClass: Rapporto,
        join: {
          from: KEY,
          through: {
            modelClass: RapportoSoggetto,
            from: ['rapporti_soggetti.cod_azienda', 'rapporti_soggetti.cod_anagrafe'],
            to: ['rapporti_soggetti.cod_azienda', 'rapporti_soggetti.cod_rapporto'],
            extra: { ruolo: 'ruolo', ruolo_dal: 'dal', ruolo_al: 'al' },
          },
          to: ['rapporti.cod_azienda', 'rapporti.cod_rapporto'],
        },
        modify: (q) => q.orderBy([{ column: 'rapporti.data_apertura' }, { column: 'rapporti.cod_rapporto' }]),
      },
      ruoli: {
        relation: Model.HasManyRelation,
        modelClass: RapportoSoggetto,
        join: { from: KEY, to: ['rapporti_soggetti.cod_azienda', 'rapporti_soggetti.cod_anagrafe'] },
      },
      /** Links from this subject to others (its representative, its owners, ...). */
      legami_uscenti: {
        relation: Model.HasManyRelation,
        modelClass: Legame,
        join: { from: KEY, to: ['legami.cod_azienda', 'legami.cod_anagrafe_da'] },
        modify: (q) => q.orderBy([{ column: 'legami.created_at' }, { column: 'legami.id' }]),
      },
      /** Links from others to this subject (the companies it represents or owns). */
      legami_entranti: {
        relation: Model.HasManyRelation,
        modelClass: Legame,
        join: { from: KEY, to: ['legami.cod_azienda', 'legami.cod_anagrafe_a'] },
        modify: (q) => q.orderBy([{ column: 'legami.created_at' }, { column: 'legami.id' }]),
      },
      /** Its beneficial owners: owner links from this entity to natural persons. */
      titolari: {
        relation: Model.HasManyRelation,
        modelClass: Legame,
        join: { from: KEY, to: ['legami.cod_azienda', 'legami.cod_anagrafe_da'] },
        modify: (q) => { OWNER_LINKS(q); q.orderBy([{ column: 'legami.created_at' }, { column: 'legami.id' }]); },
      },
      /** What this person owns or controls: owner links to this subject. */
      partecipazioni: {
        relation: Model.HasManyRelation,
        modelClass: Legame,
        join: { from: KEY, to: ['legami.cod_azienda', 'legami.cod_anagrafe_a'] },
        modify: (q) => { OWNER_LINKS(q); q.orderBy([{ column: 'legami.created_at' }, { column: 'legami.id' }]); },
      },
      documenti: {
        relation: Model.HasManyRelation,
        modelClass: Documento,
        join: { from: KEY, to: ['documenti.cod_azienda', 'documenti.cod_anagrafe'] },
        modify: (q) => q.orderBy([{ column: 'documenti.created_at' }, { column: 'documenti.id' }]),
      },
      versioni: {
        relation: Model.HasManyRelation,
        modelClass: CustomerVersion,
        join: { from: KEY, to: ['anagrafe_versioni.cod_azienda', 'anagrafe_versioni.cod_anagrafe'] },
        modify: (q) => q.orderBy('anagrafe_versioni.versione', 'desc'),
      },
    };
  }
}
