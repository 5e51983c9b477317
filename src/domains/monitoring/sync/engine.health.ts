import type { Deps } from '../../../deps';
import { withTenant } from '../../../db/tenant';
import { syncStats } from './sync.repo';

/**
 * The engine's health (docs/monitoring.md, "The engine process and its sync"): the workers polling
 * the engine's task queue (Temporal's DescribeTaskQueue), the sync's lag and dead letters, the last
 * daily batch. `down`: no engine worker, or Temporal not answering; `degraded`: workers answer but
 * the copy lags, has dead letters, or the last daily batch failed; `ok` otherwise. Always an answer
 * within a few seconds, never an error for an unreachable Temporal.
 */
const TEMPORAL_DEADLINE_MS = 3_000;
// temporal.api.enums.v1 values (the proto package is not a direct dependency): a normal queue, its activity pollers.
const TASK_QUEUE_KIND_NORMAL = 1;
const TASK_QUEUE_TYPE_ACTIVITY = 2;
/** The copy is late when its last success is older than this (the Schedule runs every 3 minutes). */
export const SYNC_LAG_DEGRADED_SECONDS = 15 * 60;

export interface EngineWorker { identity: string; ultimo_contatto: string | null; attivita_al_secondo: number | null }

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('Temporal non risponde in tempo')), ms); })]).finally(() => clearTimeout(timer));
}

/** The engine's workers seen on its queue (activity pollers of the last minutes), or the reason they cannot be seen. */
export async function engineWorkers(deps: Pick<Deps, 'temporal' | 'config'>): Promise<{ ok: true; workers: EngineWorker[] } | { ok: false; errore: string }> {
  try {
    const client = await within(deps.temporal.get(), TEMPORAL_DEADLINE_MS);
    const r = await client.connection.withDeadline(Date.now() + TEMPORAL_DEADLINE_MS, () => client.workflowService.describeTaskQueue({
      namespace: deps.config.temporal.namespace, taskQueue: { name: deps.config.temporal.engineTaskQueue, kind: TASK_QUEUE_KIND_NORMAL },
      taskQueueType: TASK_QUEUE_TYPE_ACTIVITY,
    }));
    return {
      ok: true,
      workers: (r.pollers ?? []).map((p) => ({
        identity: p.identity ?? '',
        ultimo_contatto: p.lastAccessTime?.seconds != null ? new Date(Number(p.lastAccessTime.seconds) * 1000).toISOString() : null,
        attivita_al_secondo: p.ratePerSecond ?? null,
      })),
    };
  } catch (err) {
    return { ok: false, errore: err instanceof Error ? err.message : String(err) };
  }
}

export async function engineHealth(deps: Deps, codAzienda: string, actor: string) {
  const [workers, tenant] = await Promise.all([
    engineWorkers(deps),
    withTenant(deps.db, { codAzienda, actor }, async (trx) => ({
      sync: await syncStats(trx, codAzienda),
      giornaliera: await trx('monitoring_esecuzioni').where({ cod_azienda: codAzienda, tipo: 'giornaliero' }).orderBy('created_at', 'desc')
        .first('id', trx.raw('giorno::text as giorno'), 'stato', 'elaborati', 'totale', 'created_at', 'finished_at', 'errore') as Record<string, unknown> | undefined,
    })),
  ]);
  const lag = tenant.sync.map((s) => s.ritardo_secondi);
  const maxLag = lag.some((l) => l === null) ? null : Math.max(...(lag as number[]));
  const deadLetters = tenant.sync.reduce((n, s) => n + s.dead_letter, 0);
  const problemi: string[] = [];
  if (!workers.ok) problemi.push(`Temporal non raggiungibile: ${workers.errore}`);
  else if (!workers.workers.length) problemi.push(`nessun worker del motore sulla coda ${deps.config.temporal.engineTaskQueue}`);
  if (maxLag === null) problemi.push('la copia del motore non è mai stata sincronizzata per ogni tipo');
  else if (maxLag > SYNC_LAG_DEGRADED_SECONDS) problemi.push(`copia del motore in ritardo di ${maxLag} s`);
  if (deadLetters) problemi.push(deadLetters === 1 ? "1 sincronizzazione in dead letter" : `${deadLetters} sincronizzazioni in dead letter`);
  if (tenant.giornaliera?.stato === 'failed') problemi.push(`elaborazione giornaliera del ${String(tenant.giornaliera.giorno)} fallita`);
  const status = !workers.ok || !workers.workers.length ? 'down' : problemi.length ? 'degraded' : 'ok';
  return {
    status, verificato_at: new Date().toISOString(), problemi,
    coda: deps.config.temporal.engineTaskQueue,
    temporal: workers.ok ? 'ok' as const : 'down' as const,
    workers: workers.ok ? workers.workers : [],
    sync: { ritardo_secondi: maxLag, dead_letter: deadLetters, per_tipo: tenant.sync },
    ultima_giornaliera: tenant.giornaliera ?? null,
  };
}
