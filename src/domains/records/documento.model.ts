import { RecordsModel } from './records.model-base';

/** An identity or company document of a subject, with its issue and expiry dates and an optional scanned copy. */
export class Documento extends RecordsModel {
  static override tableName = 'documenti';

  static override dateColumns = ['data_rilascio', 'data_scadenza'];

  declare id: string;
  declare cod_documento: string;
  declare versione: number;
  declare dimensione: string | null;
  declare mrz: string | null;
  declare esito_verifica: 'da_verificare' | 'valido' | 'non_valido';
  declare verifica: unknown[];
  declare verificato_by: string | null;
  declare verificato_at: Date | null;
  declare updated_by: string | null;
  declare cod_anagrafe: string;
  declare tipo: string;
  declare numero: string | null;
  declare autorita_rilascio: string | null;
  declare paese_rilascio: string | null;
  declare data_rilascio: string | null;
  declare data_scadenza: string | null;
  declare stato: string;
  declare sha256: string | null;
  declare nome_file: string | null;
  declare mime: string | null;
  declare created_by: string;
  declare created_at: Date;
  declare updated_at: Date;
}
