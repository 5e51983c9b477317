import type { Deps } from '../../deps';

export type CheckStatus = 'ok' | 'down';
export interface CheckResult { status: CheckStatus; latency_ms: number; error?: string }
export interface HealthReport {
  status: CheckStatus;
  checked_at: string;
  checks: { web: CheckResult; database: CheckResult; temporal: CheckResult };
}

const CHECK_TIMEOUT_MS = 2_000;

class Timeout extends Error {}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Timeout('timeout')), ms); });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/**
 * Times one probe. The reason shown is coarse on purpose (the endpoint is public);
 * the actual error goes to the log.
 */
async function probe(name: string, deps: Deps, fn: () => Promise<unknown>): Promise<CheckResult> {
  const started = performance.now();
  try {
    await withTimeout(fn(), CHECK_TIMEOUT_MS);
    return { status: 'ok', latency_ms: Math.round(performance.now() - started) };
  } catch (err) {
    deps.logger.warn({ err, check: name }, 'health check failed');
    return { status: 'down', latency_ms: Math.round(performance.now() - started), error: err instanceof Timeout ? 'timeout' : 'unavailable' };
  }
}

export async function checkHealth(deps: Deps): Promise<HealthReport> {
  const [database, temporal] = await Promise.all([
    probe('database', deps, () => deps.db.raw('select 1')),
    probe('temporal', deps, async () => {
      const client = await deps.temporal.get();
      // A deadline on the call itself: a connection to a vanished server would otherwise wait long.
      await client.connection.withDeadline(Date.now() + CHECK_TIMEOUT_MS, () => client.workflowService.getSystemInfo({}));
    }),
  ]);
  const web: CheckResult = { status: 'ok', latency_ms: 0 };
  const status: CheckStatus = database.status === 'ok' && temporal.status === 'ok' ? 'ok' : 'down';
  return { status, checked_at: new Date().toISOString(), checks: { web, database, temporal } };
}
