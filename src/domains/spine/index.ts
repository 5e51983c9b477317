// The document spine's public surface (docs/document-spine.md). An area adds its documents to the
// spine through `documentSources` in its definition and `recordSpineDocument` (src/kit/document-sources.ts),
// never by importing this area.
export { addYearsIso, retentionDue, retentionOf, RETENTION_YEARS, type Retention } from './spine.retention';
