import { screenSubjects } from '../../src/domains/screening';
import type { ScreeningSubjectInput } from '../../workflows/screening/screening.contract';
import type { ActivityDeps } from '../deps';

export function createScreeningBatchActivities({ db }: ActivityDeps) {
  return {
    async screenBatchChunk(p: { codAzienda: string; actor: string; batchId: string; offset: number; subjects: ScreeningSubjectInput[] }): Promise<{ matchesCreated: number }> {
      const r = await screenSubjects(db, p.codAzienda, p.actor, p.subjects);
      return { matchesCreated: r.reduce((n, s) => n + s.matches_created.length, 0) };
    },
  };
}
