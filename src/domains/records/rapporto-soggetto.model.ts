import { RecordsModel } from './records.model-base';

/** A subject's role on a relationship (intestatario, cointestatario, esecutore, delegato, titolare_effettivo) and when it held it. */
export class RapportoSoggetto extends RecordsModel {
  static override tableName = 'rapporti_soggetti';

  static override dateColumns = ['dal', 'al'];

  declare id: string;
  declare cod_rapporto: string;
  declare cod_anagrafe: string;
  declare ruolo: string;
  declare dal: string;
  declare al: string | null;
  declare fonte: string;
  declare created_by: string;
  declare created_at: Date;
}
