import { Model, type RelationMappings } from 'objection';
import type { CaseStatus } from '../../../workflows/case/case.machine';
import { TenantModel } from '../../models/base';
import { AuditEvent } from '../audit';
import { CaseEvent } from './case-event.model';

/** The projection of a case (its workflow is the authority on transitions), with its timeline and audit trail. */
export class Case extends TenantModel {
  static override tableName = 'cases';

  declare id: string;
  declare titolo: string;
  declare descrizione: string;
  declare tipo: string;
  declare priorita: string;
  declare stato: CaseStatus;
  declare cod_anagrafe: string | null;
  declare assegnatario: string | null;
  declare esito: string | null;
  declare motivazione_chiusura: string | null;
  declare opened_by: string;
  declare closing_requested_by: string | null;
  declare closed_by: string | null;
  declare sla_days: number;
  declare sla_due_at: Date;
  declare overdue: boolean;
  declare workflow_id: string;
  declare created_at: Date;
  declare updated_at: Date;
  declare closed_at: Date | null;
  declare events?: CaseEvent[];
  declare audit?: AuditEvent[];

  static override get relationMappings(): RelationMappings {
    return {
      events: {
        relation: Model.HasManyRelation,
        modelClass: CaseEvent,
        join: { from: 'cases.id', to: 'case_events.case_id' },
        modify: (q) => q.select('id', 'case_id', 'tipo', 'testo', 'actor', 'created_at').orderBy([{ column: 'created_at' }, { column: 'id' }]),
      },
      audit: {
        relation: Model.HasManyRelation,
        modelClass: AuditEvent,
        join: { from: 'cases.id', to: 'audit_events.entity_id' },
        // One modifier: Objection ignores `filter` when `modify` is also given, and the entity type must hold.
        modify: (q) => q.where('audit_events.entity_type', 'case').select('entity_id', 'seq', 'action', 'actor', 'occurred_at', 'data').orderByRaw(AuditEvent.chainOrder),
      },
    };
  }
}
