import { Model, type RelationMappings } from 'objection';
import { RecordsModel } from './records.model-base';
import { CustomerRow } from './customer-row.model';

/**
 * A link between two subjects: from `cod_anagrafe_da` (the company, the represented) to
 * `cod_anagrafe_a` (its owner, its representative). A beneficial owner is a link of tipo
 * 'titolare_effettivo' with its kind of control (one graph, no second table).
 */
export class Legame extends RecordsModel {
  static override tableName = 'legami';

  static override dateColumns = ['dal', 'al'];

  declare id: string;
  declare cod_anagrafe_da: string;
  declare cod_anagrafe_a: string;
  declare tipo: string;
  declare percentuale: string | null;
  declare tipo_controllo: string | null;
  declare dal: string | null;
  declare al: string | null;
  declare fonte: string;
  declare note: string | null;
  declare created_by: string;
  declare created_at: Date;
  declare da?: CustomerRow;
  declare a?: CustomerRow;

  static override get relationMappings(): RelationMappings {
    return {
      da: {
        relation: Model.BelongsToOneRelation,
        modelClass: CustomerRow,
        join: { from: ['legami.cod_azienda', 'legami.cod_anagrafe_da'], to: ['anagrafe.cod_azienda', 'anagrafe.cod_anagrafe'] },
        modify: (q) => q.select('anagrafe.cod_azienda', 'anagrafe.cod_anagrafe', 'anagrafe.denominazione', 'anagrafe.tipo_soggetto', 'anagrafe.pep', 'anagrafe.stato'),
      },
      a: {
        relation: Model.BelongsToOneRelation,
        modelClass: CustomerRow,
        join: { from: ['legami.cod_azienda', 'legami.cod_anagrafe_a'], to: ['anagrafe.cod_azienda', 'anagrafe.cod_anagrafe'] },
        modify: (q) => q.select('anagrafe.cod_azienda', 'anagrafe.cod_anagrafe', 'anagrafe.denominazione', 'anagrafe.tipo_soggetto', 'anagrafe.pep', 'anagrafe.stato'),
      },
    };
  }
}
