import type { AppStack } from './app-stack';
import { startBareTemporal } from './bare-temporal';
import { closedLoop, serverMs, type BenchHttp, type LoadFigures } from './load';

const ratio = (a: number, b: number) => +(a / b).toFixed(2);

/**
 * Creation and transitions of the case process through the HTTP API, each beside a bare
 * Temporal workflow doing the least (one update, one update-with-start) in the same run.
 * Leaves `opened` case workflows open (the memory figure counts them).
 */
export async function processFigures(stack: AppStack, http: BenchHttp, opts: { cases: number; sequential: number }, out: (o: Record<string, unknown>) => void) {
  const bare = await startBareTemporal(stack.temporalAddress);
  try {
    const createCase = async (i: number) => {
      const r = await http.request('POST', '/api/cases', { json: { titolo: `Verifica bonifici ricorrenti ${i}`, tipo: 'indagine', priorita: 'media' } });
      return { ok: r.status === 201, serverMs: serverMs(r), what: `${r.status} ${r.body.slice(0, 200)}`, id: r.status === 201 ? (JSON.parse(r.body) as { id: string }).id : '' };
    };
    // Warm both paths (bundles loaded, connections open) before anything is measured.
    for (let i = 0; i < 20; i++) { await createCase(-i); await bare.startWithUpdate(); }

    const caseIds: string[] = [];
    const bareIds: string[] = [];
    const appCreate = await closedLoop({ concurrency: 8, total: opts.cases, send: async (i) => { const r = await createCase(i); caseIds.push(r.id); return r; } });
    const bareCreate = await closedLoop({ concurrency: 8, total: opts.cases, send: async () => { bareIds.push(await bare.startWithUpdate()); return { ok: true }; } });
    out({ figure: 'creation', clients: 8, app: appCreate, baseline: bareCreate, ratio_rate: ratio(appCreate.per_second, bareCreate.per_second), target: 'ratio_rate >= 0.8' });

    // One at a time: the latency of a transition against a bare update on an open workflow. The
    // newest cases are still in the worker's bounded cache (warm); the oldest were evicted and
    // replay their history first (cold), as a case touched again days later does.
    const escalate = async (id: string) => {
      const r = await http.request('PUT', `/api/cases/${id}/escalate`, { json: {} });
      return { ok: r.status === 200, serverMs: serverMs(r), what: `${r.status} ${r.body.slice(0, 200)}` };
    };
    const warm = caseIds.slice(-opts.sequential).reverse();
    const cold = caseIds.slice(0, opts.sequential);
    const seqApp = await closedLoop({ concurrency: 1, total: warm.length, send: (i) => escalate(warm[i]!) });
    const seqAppCold = await closedLoop({ concurrency: 1, total: cold.length, send: (i) => escalate(cold[i]!) });
    const seqBare = await closedLoop({ concurrency: 1, total: opts.sequential, send: async (i) => { await bare.update(bareIds[i]!); return { ok: true }; } });
    const seqBareActivity = await closedLoop({ concurrency: 1, total: opts.sequential, send: async (i) => { await bare.update(bareIds[i]!, 'bumpWithActivity'); return { ok: true }; } });
    const seqBareLocal = await closedLoop({ concurrency: 1, total: opts.sequential, send: async (i) => { await bare.update(bareIds[i]!, 'bumpWithLocalActivity'); return { ok: true }; } });
    const seqBareLocalStatus = await closedLoop({ concurrency: 1, total: opts.sequential, send: async (i) => { await bare.update(bareIds[i]!, 'bumpWithLocalActivityAndStatus'); return { ok: true }; } });
    out({
      figure: 'transition-latency', clients: 1, app: seqApp, baseline: seqBare, ratio_p50: ratio(seqApp.p50_ms, seqBare.p50_ms), target: 'ratio_p50 <= 1.5',
      app_cold: seqAppCold,
      // What a transition is made of, bare: an update running a no-op activity, a no-op local activity, and that plus publishing the status.
      bare_with_activity_p50_ms: seqBareActivity.p50_ms, bare_with_local_activity_p50_ms: seqBareLocal.p50_ms, bare_with_local_activity_and_status_p50_ms: seqBareLocalStatus.p50_ms,
    });

    const rest = caseIds.slice(opts.sequential, -opts.sequential);
    const parApp: LoadFigures = await closedLoop({ concurrency: 8, total: rest.length, send: (i) => escalate(rest[i]!) });
    const parBare = await closedLoop({ concurrency: 8, total: rest.length, send: async (i) => { await bare.update(bareIds[(opts.sequential + i) % bareIds.length]!); return { ok: true }; } });
    const parBareLocalStatus = await closedLoop({ concurrency: 8, total: rest.length, send: async (i) => { await bare.update(bareIds[(opts.sequential + i) % bareIds.length]!, 'bumpWithLocalActivityAndStatus'); return { ok: true }; } });
    out({ figure: 'transition-rate', clients: 8, app: parApp, baseline: parBare, ratio_rate: ratio(parApp.per_second, parBare.per_second), target: 'app.per_second >= 60', bare_with_local_activity_and_status_per_second: parBareLocalStatus.per_second, note: 'app: cases opened earlier, mostly evicted from the bounded workflow cache' });
    return { openCases: caseIds.length + 20 };
  } finally {
    await bare.stop();
  }
}
