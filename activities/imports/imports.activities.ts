import { Context } from '@temporalio/activity';
import { beginImport, finishImport, importChunk } from '../../src/domains/imports/import-run';
import type { ImportChunkResult, ImportInput } from '../../workflows/imports/imports.contract';
import type { ActivityDeps } from '../deps';

/** The import's steps: start, a chunk of batches (heartbeating after each), finish with its audit event. */
export function createImportActivities({ db, config }: ActivityDeps) {
  return {
    beginImport: (input: ImportInput): Promise<void> => beginImport(db, input),
    importChunk: (input: ImportInput): Promise<ImportChunkResult> => {
      const ctx = Context.current();
      return importChunk({ db, documentDir: config.documentDir, heartbeat: (d) => ctx.heartbeat(d) }, input);
    },
    finishImport: (input: ImportInput & { stato: 'completato' | 'fallito'; errore?: string }): Promise<void> => finishImport(db, input),
  };
}
