import type { Pojo } from 'objection';
import { TenantModel } from '../../models/base';
import { withIsoDates } from './records.dates';

/** The records area's models: tenant rows whose calendar dates read as 'YYYY-MM-DD' (records.dates.ts). */
export class RecordsModel extends TenantModel {
  /** The model's `date` columns. */
  static dateColumns: readonly string[] = [];

  override $parseDatabaseJson(json: Pojo): Pojo {
    return withIsoDates(super.$parseDatabaseJson(json), (this.constructor as typeof RecordsModel).dateColumns);
  }
}
