import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

// The same keys as temporal/search-attributes.ts, redeclared here because workflow code
// may not import from temporal/. A key is a name plus a type, so both copies agree by value.
export const CodAzienda = defineSearchAttributeKey('CodAzienda', SearchAttributeType.KEYWORD);
export const RecordType = defineSearchAttributeKey('RecordType', SearchAttributeType.KEYWORD);
export const RecordId = defineSearchAttributeKey('RecordId', SearchAttributeType.KEYWORD);
export const RecordStatus = defineSearchAttributeKey('RecordStatus', SearchAttributeType.KEYWORD);
export const DueAt = defineSearchAttributeKey('DueAt', SearchAttributeType.DATETIME);
