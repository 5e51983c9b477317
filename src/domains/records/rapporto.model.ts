import { Model, type RelationMappings } from 'objection';
import { RecordsModel } from './records.model-base';
import { CustomerRow } from './customer-row.model';
import { RapportoSoggetto } from './rapporto-soggetto.model';

/** A relationship (rapporto) with the tenant; `cod_anagrafe` is its first holder, the roles are in rapporti_soggetti. */
export class Rapporto extends RecordsModel {
  static override tableName = 'rapporti';
  static override idColumn = ['cod_azienda', 'cod_rapporto'];

  static override dateColumns = ['data_apertura', 'data_chiusura', 'ruolo_dal', 'ruolo_al'];

  declare cod_rapporto: string;
  declare cod_anagrafe: string;
  declare tipo: string;
  declare stato: string;
  declare data_apertura: string;
  declare data_chiusura: string | null;
  declare scopo: string | null;
  declare natura: string | null;
  declare onboarding_case_id: string | null;
  declare created_by: string;
  declare created_at: Date;
  declare updated_at: Date;
  declare soggetti?: (CustomerRow & { ruolo: string })[];
  declare ruoli?: RapportoSoggetto[];

  static override get relationMappings(): RelationMappings {
    return {
      /** The subjects with a role on the relationship, with the role. */
      soggetti: {
        relation: Model.ManyToManyRelation,
        modelClass: CustomerRow,
        join: {
          from: ['rapporti.cod_azienda', 'rapporti.cod_rapporto'],
          through: {
            modelClass: RapportoSoggetto,
            from: ['rapporti_soggetti.cod_azienda', 'rapporti_soggetti.cod_rapporto'],
            to: ['rapporti_soggetti.cod_azienda', 'rapporti_soggetti.cod_anagrafe'],
            extra: { ruolo: 'ruolo', ruolo_dal: 'dal', ruolo_al: 'al' },
          },
          to: ['anagrafe.cod_azienda', 'anagrafe.cod_anagrafe'],
        },
      },
      ruoli: {
        relation: Model.HasManyRelation,
        modelClass: RapportoSoggetto,
        join: { from: ['rapporti.cod_azienda', 'rapporti.cod_rapporto'], to: ['rapporti_soggetti.cod_azienda', 'rapporti_soggetti.cod_rapporto'] },
        modify: (q) => q.orderBy([{ column: 'rapporti_soggetti.dal' }, { column: 'rapporti_soggetti.id' }]),
      },
    };
  }
}
