import { z } from 'zod';
import { MESSAGE_STATUSES } from '../../../workflows/outbox/outbox.contract';
import { MESSAGE_KINDS } from './outbox.enqueue';
import { listParamsShape, listResponse } from '../../kit/list';
import { outboxList } from './outbox.list';

/** Filters of the operators' list; an unknown value is a 422, never silently "all". */
export const outboxListQuery = z.object({
  status: z.enum(MESSAGE_STATUSES).optional(),
  kind: z.enum(MESSAGE_KINDS).optional(),
  /** Superadmin only: one tenant's messages. */
  cod_azienda: z.string().trim().regex(/^[A-Za-z0-9_-]{1,32}$/, 'Codice azienda non valido').optional(),
  /** Part of the recipient's address or of the subject. */
  q: z.string().trim().max(100).optional(),
  ...listParamsShape(outboxList),
});
export type OutboxListQuery = z.infer<typeof outboxListQuery>;

const iso = z.string().nullable();
/** A message as operators see it: never its body (it may carry a code or a bearer link). */
export const outboxMessageSchema = z.object({
  id: z.string().uuid(),
  cod_azienda: z.string(),
  kind: z.enum(MESSAGE_KINDS),
  recipient: z.string(),
  subject: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  entity_type: z.string().nullable(),
  entity_id: z.string().nullable(),
  created_at: z.string(),
  last_attempt_at: iso,
  sent_at: iso,
  failed_at: iso,
});
export type OutboxMessageView = z.infer<typeof outboxMessageSchema>;

export const outboxListResponse = listResponse(outboxMessageSchema);
