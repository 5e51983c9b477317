import { randomUUID } from 'node:crypto';
import type { TestClient } from '../../test/helpers/http-client';

const MAX_ATTEMPTS = 10;

/**
 * Opens `count` cases through POST /api/cases (each one a running case workflow), `concurrency`
 * at a time, with a signed-in client of a user who may open cases (admin, co, sos, analyst).
 */
export async function openCases(client: TestClient, count: number, opts: { concurrency?: number; title?: (i: number) => string } = {}): Promise<{ ids: string[]; ms: number; retries: number }> {
  const concurrency = opts.concurrency ?? 8;
  const title = opts.title ?? ((i: number) => `Caso di prova ${i + 1}`);
  const ids: string[] = new Array(count);
  let next = 0;
  const t0 = performance.now();
  let retries = 0;
  const lane = async () => {
    for (let i = next++; i < count; i = next++) {
      // A 503 (the workflow did not answer in time on a busy machine) is retried with the same
      // key, as the API asks, and so is the 409 of a key whose first request still runs: the
      // case is opened once whatever happened to the first attempt.
      const key = `bench-${randomUUID()}`;
      for (let attempt = 1; ; attempt++) {
        const r = await client.request<{ id: string; retry_after?: number }>('POST', '/api/cases', {
          json: { titolo: title(i), tipo: 'altro', priorita: 'media' }, headers: { 'idempotency-key': key },
        });
        if (r.status === 201) { ids[i] = r.body.id; break; }
        if ((r.status !== 503 && r.status !== 409) || attempt >= MAX_ATTEMPTS) throw new Error(`POST /api/cases answered ${r.status}: ${r.text.slice(0, 300)}`);
        retries++;
        await new Promise((res) => setTimeout(res, (r.body.retry_after ?? 1) * 1000));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  return { ids, ms: Math.round(performance.now() - t0), retries };
}

/** GETs each page as a browser would (HTML); returns the status of each. */
export async function openPages(client: TestClient, paths: readonly string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const p of paths) out[p] = (await client.get(p, { accept: 'text/html' })).status;
  return out;
}
