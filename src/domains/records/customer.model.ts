import { Model, type RelationMappings } from 'objection';
import { CustomerRow } from './customer-row.model';
import { CustomerVersion } from './customer-version.model';
import { Documento } from './documento.model';
import { Legame } from './legame.model';
import { Rapporto } from './rapporto.model';
import { RapportoSoggetto } from './rapporto-soggetto.model';

const KEY = ['anagrafe.cod_azienda', 'anagrafe.cod_anagrafe'];
const OWNER_LINKS = (q: { where: (column: string, value: string) => unknown }) => { q.where('legami.tipo', 'titolare_effettivo'); };

/**
 * A subject of the registry (anagrafe) with the customer file's graph as relation mappings: its
 * relationships through their roles, its links both ways, its beneficial owners (links of tipo 'titolare_effettivo'), its documents and versions.
 */
export class Customer extends CustomerRow {
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
