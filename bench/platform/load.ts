import http from 'node:http';

/** One HTTP answer as the load driver sees it. */
export interface Answer { status: number; body: string; headers: http.IncomingHttpHeaders }

/** Keep-alive HTTP with as little client work as possible: the load generator shares the two cores with the app. */
export class BenchHttp {
  readonly #agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  readonly #url: URL;
  cookie = '';
  constructor(baseUrl: string) { this.#url = new URL(baseUrl); }

  request(method: string, path: string, opts: { json?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
    const body = opts.json === undefined ? undefined : JSON.stringify(opts.json);
    const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookie) headers.cookie = this.cookie;
    return new Promise((resolve, reject) => {
      const req = http.request({ host: this.#url.hostname, port: this.#url.port, path, method, headers, agent: this.#agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  close() { this.#agent.destroy(); }
}

export interface LoadFigures {
  requests: number;
  seconds: number;
  per_second: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  /** From the answers' Server-Timing header, when the server sends one. */
  server_p50_ms?: number;
  server_p95_ms?: number;
}

const pct = (sorted: number[], p: number) => sorted.length ? +sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!.toFixed(2) : 0;

/**
 * A closed loop: `concurrency` clients each send the next request when the previous one
 * answered, until `total` requests (or `seconds`) are done. Any answer other than the
 * expected status stops the run: a figure made of errors would mean nothing.
 */
export async function closedLoop(opts: {
  concurrency: number; total?: number; seconds?: number;
  send: (i: number) => Promise<{ ok: boolean; serverMs?: number; what?: string }>;
}): Promise<LoadFigures> {
  const latencies: number[] = [];
  const server: number[] = [];
  let next = 0;
  const until = opts.seconds ? performance.now() + opts.seconds * 1000 : Infinity;
  const more = () => (opts.total === undefined || next < opts.total) && performance.now() < until;
  const started = performance.now();
  await Promise.all(Array.from({ length: opts.concurrency }, async () => {
    while (more()) {
      const i = next++;
      const t = performance.now();
      const r = await opts.send(i);
      if (!r.ok) throw new Error(`request ${i} failed: ${r.what ?? ''}`);
      latencies.push(performance.now() - t);
      if (r.serverMs !== undefined) server.push(r.serverMs);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  server.sort((a, b) => a - b);
  return {
    requests: latencies.length, seconds: +seconds.toFixed(2), per_second: +(latencies.length / seconds).toFixed(1),
    p50_ms: pct(latencies, 0.5), p95_ms: pct(latencies, 0.95), p99_ms: pct(latencies, 0.99),
    ...(server.length ? { server_p50_ms: pct(server, 0.5), server_p95_ms: pct(server, 0.95) } : {}),
  };
}

/** The app's own time for a request, from `Server-Timing: app;dur=…`. */
export function serverMs(a: Answer): number | undefined {
  const m = /app;dur=([\d.]+)/.exec(String(a.headers['server-timing'] ?? ''));
  return m ? Number(m[1]) : undefined;
}
