import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { upsertSearchAttributes } from '@temporalio/workflow';

// The same keys as temporal/search-attributes.ts, redeclared here because workflow code
// may not import from temporal/. A key is a name plus a type, so both copies agree by value.
export const CodAzienda = defineSearchAttributeKey('CodAzienda', SearchAttributeType.KEYWORD);
export const RecordType = defineSearchAttributeKey('RecordType', SearchAttributeType.KEYWORD);
export const RecordId = defineSearchAttributeKey('RecordId', SearchAttributeType.KEYWORD);
export const RecordStatus = defineSearchAttributeKey('RecordStatus', SearchAttributeType.KEYWORD);
export const DueAt = defineSearchAttributeKey('DueAt', SearchAttributeType.DATETIME);

/**
 * Publishes where a record stands, so the Web UI finds it by tenant, type, id and status
 * (and due date, for scheduled records). One upsert, the same command for every process.
 */
export function publishRecord(r: { codAzienda?: string | null; recordType: string; recordId: string; status: string; dueAt?: string | Date }): void {
  upsertSearchAttributes([
    ...(r.codAzienda ? [{ key: CodAzienda, value: r.codAzienda }] : []),
    { key: RecordType, value: r.recordType },
    { key: RecordId, value: r.recordId },
    { key: RecordStatus, value: r.status },
    ...(r.dueAt !== undefined ? [{ key: DueAt, value: new Date(r.dueAt) }] : []),
  ]);
}
