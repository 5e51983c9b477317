import { defineList } from '../../kit/list';
import type { MESSAGE_STATUSES } from '../../../workflows/outbox/outbox.contract';
import type { MESSAGE_KINDS } from './outbox.enqueue';

export const OUTBOX_COLUMNS = ['id', 'cod_azienda', 'kind', 'recipient', 'subject', 'status', 'attempts', 'last_error', 'entity_type', 'entity_id',
  'created_at', 'last_attempt_at', 'sent_at', 'failed_at'] as const;

/** Outgoing messages, newest first: a tenant admin's (the tenant's) or a superadmin's (every tenant's, platform-wide). */
export const outboxList = defineList<{ status: (typeof MESSAGE_STATUSES)[number]; kind: (typeof MESSAGE_KINDS)[number]; cod_azienda: string }>({
  name: 'outbox.messages',
  table: 'outbox_messages',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant', 'platform'],
  columns: () => [...OUTBOX_COLUMNS],
  sorts: { created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }] },
  defaultSort: '-created_at',
  filters: {
    status: { apply: (qb, v) => qb.where('status', v), sample: 'failed' },
    kind: { apply: (qb, v) => qb.where('kind', v), sample: 'otp' },
    cod_azienda: { apply: (qb, v) => qb.where('cod_azienda', v), sample: 'SEED1' },
  },
  search: {
    apply: (qb, like) => qb.where((w) => w.whereILike('recipient', like).orWhereILike('subject', like)),
    sample: 'rossi',
  },
  limit: { default: 25, max: 200 },
});
