import { TenantModel } from '../../models/base';
import { CHAIN_ORDER } from './audit.chain';

/** One event of a tenant's audit chain, for graph reads of the records it is about (read-only for the application). */
export class AuditEvent extends TenantModel {
  static override tableName = 'audit_events';
  /** Chain order: sealed events by seq, the ones waiting for their seal last. */
  static readonly chainOrder = CHAIN_ORDER;

  declare id: number;
  declare seq: number | null;
  declare action: string;
  declare actor: string;
  declare occurred_at: Date;
  declare entity_type: string;
  declare entity_id: string;
  declare data: Record<string, unknown>;
}
