/** Bulk import of customers, relationships and movements: one workflow per uploaded file (docs/import.md). */
export const IMPORT_WORKFLOW_TYPE = 'importWorkflow';
export const IMPORT_RECORD_TYPE = 'import';

export const importWorkflowId = (codAzienda: string, importId: string) => `import:${codAzienda}:${importId}`;

/** Rows written per transaction: one heartbeat and one progress update each. */
export const IMPORT_BATCH_ROWS = 5_000;
/** Batches per activity call, so a large file is a few dozen workflow events, not thousands. */
export const IMPORT_BATCHES_PER_CHUNK = 20;
/**
 * Movement batches written at once (one connection each, of the pool's ten): the database's work
 * per row (six indexes, the foreign keys) uses one core per connection (docs/import.md, "Speed").
 */
export const IMPORT_MOVEMENT_WRITERS = 3;

export interface ImportInput { importId: string; codAzienda: string }

/** Where a chunk stopped: done, or the file was refused as a whole (a required column missing). */
export interface ImportChunkResult { done: boolean; refused?: string }
