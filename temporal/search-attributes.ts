import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Every process record is findable in the Temporal Web UI by these. */
export const CodAzienda = defineSearchAttributeKey('CodAzienda', SearchAttributeType.KEYWORD);
export const RecordType = defineSearchAttributeKey('RecordType', SearchAttributeType.KEYWORD);
export const RecordId = defineSearchAttributeKey('RecordId', SearchAttributeType.KEYWORD);
export const RecordStatus = defineSearchAttributeKey('RecordStatus', SearchAttributeType.KEYWORD);

export const searchAttributeDefinitions: Record<string, 'Keyword' | 'Text' | 'Int' | 'Bool' | 'Datetime'> = {
  CodAzienda: 'Keyword',
  RecordType: 'Keyword',
  RecordId: 'Keyword',
  RecordStatus: 'Keyword',
};

/**
 * The attributes a record's workflow starts with, so it is findable in the Web UI from its
 * first event. Platform records (list imports) have no tenant.
 */
export function recordSearchAttributes(r: { codAzienda?: string | null; recordType: string; recordId: string; status: string }) {
  return [
    ...(r.codAzienda ? [{ key: CodAzienda, value: r.codAzienda }] : []),
    { key: RecordType, value: r.recordType },
    { key: RecordId, value: r.recordId },
    { key: RecordStatus, value: r.status },
  ];
}
