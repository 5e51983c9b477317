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
