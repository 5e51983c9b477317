import { TenantModel } from '../../models/base';

/** A line of a case's timeline: a note, a contact, a transition, the SLA's expiry. */
export class CaseEvent extends TenantModel {
  static override tableName = 'case_events';

  declare id: string;
  declare case_id: string;
  declare tipo: string;
  declare testo: string;
  declare actor: string;
  declare created_at: Date;
}
