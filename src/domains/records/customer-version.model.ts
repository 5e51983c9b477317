import { RecordsModel } from './records.model-base';

/** One version of a subject's record: who changed it, when, which fields (old and new), and the record after the change. */
export class CustomerVersion extends RecordsModel {
  static override tableName = 'anagrafe_versioni';
  static override idColumn = ['cod_azienda', 'cod_anagrafe', 'versione'];

  declare cod_anagrafe: string;
  declare versione: number;
  declare operazione: 'create' | 'update' | 'delete';
  declare changed_at: Date;
  declare changed_by: string;
  declare campi: Record<string, { old: unknown; new: unknown }>;
  declare snapshot: Record<string, unknown>;
}
