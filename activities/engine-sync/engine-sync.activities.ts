import { performance } from 'node:perf_hooks';
import { withPlatform, withTenant } from '../../src/db/tenant';
import { copyReads, engineCopyStore } from '../../src/domains/monitoring/sync/copy-store';
import { syncTenant } from '../../src/domains/monitoring/sync/sync.run';
import { engineInstance } from '../../src/domains/monitoring/evaluation/realtime';
import type { EnginePilotAnswer } from '../../workflows/engine-sync/engine-sync.contract';
import type { ActivityDeps } from '../deps';

/**
 * The engine's sync and pilot steps. syncEngineTenant and enginePilotRead run on the engine's task
 * queue (workflows/lib/engine-queue.ts), served by `npm run engine` (and `npm start`'s engine worker).
 */
export function createEngineSyncActivities(deps: ActivityDeps) {
  return {
    async listEngineSyncTenants(): Promise<string[]> {
      const rows: { cod_azienda: string }[] = await withPlatform(deps.platformDb, 'system', (trx) => trx('aziende').where({ attiva: true }).orderBy('cod_azienda').select('cod_azienda'));
      return rows.map((r) => r.cod_azienda);
    },

    syncEngineTenant: (p: { codAzienda: string }) => syncTenant(deps.db, p.codAzienda, 'pianificata', 'sistema:engine-sync'),

    /** The engine side of the pilot: the customer's profile read through the engine's store, by the worker that took the task. */
    async enginePilotRead(p: { codAzienda: string; codAnagrafe: string }): Promise<EnginePilotAnswer> {
      const t = performance.now();
      const before = copyReads.copia;
      const found = await withTenant(deps.db, { codAzienda: p.codAzienda, actor: 'sistema:engine-pilot' }, async (trx) => (await engineCopyStore.profiles(trx, p.codAzienda, [p.codAnagrafe])).has(p.codAnagrafe));
      return { motore: engineInstance(), profilo_da: !found ? 'assente' : copyReads.copia > before ? 'copia' : 'piattaforma', lettura_ms: Math.round((performance.now() - t) * 10) / 10 };
    },
  };
}
