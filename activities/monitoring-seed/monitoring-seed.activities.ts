import { ApplicationFailure, Context } from '@temporalio/activity';
import {
  checkSeedImport, enableSeedRules, finishSeed, generateSeedFiles, planSeedReplay, recordSeedKytEvents, SeedStepFailed, setSeedPhase, type SeedRef,
} from '../../src/domains/monitoring/seed/seed.steps';
import type { SeedFase, SeedImport } from '../../workflows/monitoring-seed/monitoring-seed.contract';
import { openSeedWork } from '../../src/domains/monitoring/seed/seed.work';
import type { ActivityDeps } from '../deps';

/** The seed's steps (src/domains/monitoring/seed/seed.steps.ts); a step that cannot go on fails without retries. */
export function createMonitoringSeedActivities({ db, config }: ActivityDeps) {
  const deps = { db, documentDir: config.documentDir };
  const final = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof SeedStepFailed) throw ApplicationFailure.nonRetryable(err.message, err.code);
      throw err;
    }
  };
  return {
    generateSeedFiles: (ref: SeedRef) => { const ctx = Context.current(); return final(() => generateSeedFiles(deps, ref, () => ctx.heartbeat())); },
    setSeedPhase: (p: SeedRef & { fase: SeedFase }) => setSeedPhase(deps, p),
    checkSeedImport: (p: SeedRef & { tipo: SeedImport; importId: string }) => final(() => checkSeedImport(deps, p)),
    recordSeedKytEvents: (ref: SeedRef) => { const ctx = Context.current(); return final(() => recordSeedKytEvents(deps, ref, () => ctx.heartbeat())); },
    enableSeedRules: (ref: SeedRef) => final(() => enableSeedRules(deps, ref)),
    planSeedReplay: (ref: SeedRef) => final(() => planSeedReplay(deps, ref)),
    // The cases, CDD tasks and assessments it opens are workflows of the platform's queue: this activity's.
    openSeedWork: (ref: SeedRef) => { const ctx = Context.current(); return openSeedWork({ db, client: ctx.client, taskQueue: ctx.info.taskQueue }, ref); },
    finishSeed: (p: SeedRef & { stato: 'completato' | 'fallito'; errore?: string }) => finishSeed(deps, p),
  };
}
