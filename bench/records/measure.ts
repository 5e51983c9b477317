import http from 'node:http';
import { readProcessMemory, toMB } from '../lib/rss';
import { withTenant } from '../../src/db/tenant';
import { movementsKind } from '../../src/domains/imports/kinds/movements.kind';
import type { AppStack } from '../platform/app-stack';
import { closedLoop, serverMs, type BenchHttp, type LoadFigures } from '../platform/load';

type Out = (o: Record<string, unknown>) => void;

/** A list route one request at a time (server p50/p95 from Server-Timing), then 8 clients for the rate. */
export async function listFigure(client: BenchHttp, figure: string, path: string, accept: string, out: Out): Promise<void> {
  const probe = await client.request('GET', path, { headers: { accept } });
  if (probe.status !== 200) {
    out({ figure, skipped: `GET ${path} answered ${probe.status}: not served by this build` });
    return;
  }
  const send = async () => {
    const r = await client.request('GET', path, { headers: { accept } });
    return { ok: r.status === 200, serverMs: serverMs(r), what: `${r.status} ${r.body.slice(0, 200)}` };
  };
  for (let i = 0; i < 30; i++) await send();
  const single: LoadFigures = await closedLoop({ concurrency: 1, total: 300, send });
  const rate: LoadFigures = await closedLoop({ concurrency: 8, seconds: 10, send });
  out({ figure, path, server_p50_ms: single.server_p50_ms, server_p95_ms: single.server_p95_ms, p50_ms: single.p50_ms, p95_ms: single.p95_ms, per_second_8_clients: rate.per_second, rate });
}

/** A CSV of movements on the seeded relationships, keys never used before (every row is new). */
export function movementsCsv(rows: number, customers: number, tag: string): Buffer {
  const lines = ['chiave_esterna;rapporto;data_operazione;data_valuta;importo;valuta;segno;causale;canale;contanti;controparte_nome;controparte_paese'];
  for (let i = 1; i <= rows; i++) {
    const day = new Date(Date.now() - (i % 700) * 86_400_000).toISOString().slice(0, 10);
    lines.push(`${tag}-${i};RAP-${String(1 + (i % customers)).padStart(6, '0')};${day};${day};${(1 + (i * 7919 % 1_000_000) / 100).toFixed(2).replace('.', ',')};EUR;${i % 2 ? 'entrata' : 'uscita'};Bonifico;bonifico;${i % 25 ? 'no' : 'sì'};Controparte ${i % 500};IT`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

/** Uploads a file to POST /api/import/movimenti and waits for its workflow; rows/s between the job's start and end. */
export async function importFigure(stack: AppStack, client: BenchHttp, p: { codAzienda: string; rows: number; customers: number }, out: Out): Promise<void> {
  const csv = movementsCsv(p.rows, p.customers, `IMP${Date.now()}`);
  const boundary = `----bench${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="movimenti.csv"\r\nContent-Type: text/csv\r\n\r\n`), csv, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const csrf = /cp_csrf=([^;]+)/.exec(client.cookie)?.[1];
  const token = await csrfToken(client);
  const started = performance.now();
  const job = await rawPost(stack.baseUrl, '/api/import/movimenti', body, { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: client.cookie, 'x-csrf-token': token, accept: 'application/json' });
  if (job.status !== 202) throw new Error(`import upload answered ${job.status}: ${job.body.slice(0, 300)} (csrf cookie ${csrf ? 'present' : 'absent'})`);
  const id = (JSON.parse(job.body) as { id: string }).id;
  let done: Record<string, unknown>;
  for (;;) {
    const r = JSON.parse((await client.request('GET', `/api/import/${id}`)).body) as Record<string, unknown>;
    if (r.stato === 'completato' || r.stato === 'fallito') { done = r; break; }
    await new Promise((res) => setTimeout(res, 500));
  }
  const wall = (performance.now() - started) / 1000;
  const inWorkflow = (Date.parse(String(done.finished_at)) - Date.parse(String(done.started_at))) / 1000;
  out({
    figure: 'movement-import-file', stato: done.stato, rows: p.rows, file_mb: +(csv.length / 1e6).toFixed(1), imported: done.righe_importate, errors: done.righe_errate,
    seconds_in_workflow: +inWorkflow.toFixed(1), rows_per_second: Math.round(Number(done.righe_importate) / inWorkflow),
    seconds_upload_to_done: +wall.toFixed(1), target: 'rows_per_second >= 20000',
  });
}

/**
 * The importer's insert path alone, as a batch of the import runs it (the movements kind's row
 * check, then its write: relationship lookup and insertMovements), 5,000 rows per transaction,
 * the kind's `writers` transactions at once.
 */
export async function insertPathFigure(stack: AppStack, p: { codAzienda: string; rows: number; customers: number }, out: Out): Promise<void> {
  const text = movementsCsv(p.rows, p.customers, `INS${Date.now()}`).toString('utf8').trim().split('\r\n');
  const header = text[0]!.split(';');
  const values = text.slice(1).map((l) => Object.fromEntries(l.split(';').map((v, i) => [header[i]!, v])));
  const t0 = performance.now();
  const parsed = values.map((v) => movementsKind.parse(v));
  const tParse = performance.now();
  let imported = 0;
  // As the import writes them: IMPORT_MOVEMENT_WRITERS batches at once, each its own transaction.
  const writers = movementsKind.writers ?? 1;
  const starts = Array.from({ length: Math.ceil(parsed.length / 5_000) }, (_, k) => k * 5_000);
  const writeFrom = async (i: number) => {
    const batch = parsed.slice(i, i + 5_000).map((r, j) => {
      if (!r.ok) throw new Error(`row ${i + j} refused: ${JSON.stringify(r.errors)}`);
      return { riga: i + j + 2, value: r.value };
    });
    const w = await withTenant(stack.deps.db, { codAzienda: p.codAzienda, actor: 'bench' }, (trx) =>
      movementsKind.write(trx, { codAzienda: p.codAzienda, actor: 'bench', importId: '00000000-0000-4000-8000-00000000b000' }, batch));
    imported += w.imported;
  };
  await Promise.all(Array.from({ length: writers }, async () => {
    for (let i = starts.shift(); i !== undefined; i = starts.shift()) await writeFrom(i);
  }));
  const t1 = performance.now();
  out({
    figure: 'movement-import-insert-path', rows: p.rows, writers, imported, check_ms: Math.round(tParse - t0), write_ms: Math.round(t1 - tParse),
    rows_per_second: Math.round(imported / ((t1 - t0) / 1000)), write_rows_per_second: Math.round(imported / ((t1 - tParse) / 1000)), target: 'rows_per_second >= 20000',
  });
}

/**
 * GET /api/export/movimenti of about a million movements, read as it streams (counted, not kept),
 * with the `npm start` process's memory sampled every 100 ms: time, rows, size, RSS before, peak
 * and at each quarter of the file (flat means the same at every quarter).
 */
export async function exportFigure(stack: AppStack, client: BenchHttp, p: { formato: 'csv' | 'xlsx'; query: string; expectedRows: number }, out: Out): Promise<void> {
  await new Promise((r) => setTimeout(r, 2_000));
  const before = readProcessMemory(stack.pid).rss;
  let peak = before;
  const timer = setInterval(() => { peak = Math.max(peak, readProcessMemory(stack.pid).rss); }, 100);
  const quarters: number[] = [];
  const started = performance.now();
  let bytes = 0;
  let newlines = 0;
  const firstByte = await new Promise<number>((resolve, reject) => {
    const url = new URL(`/api/export/movimenti?formato=${p.formato}&${p.query}`, stack.baseUrl);
    let first = 0;
    const req = http.get(url, { headers: { cookie: client.cookie } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`export answered ${res.statusCode}`));
      res.on('data', (c: Buffer) => {
        if (!first) first = performance.now() - started;
        bytes += c.length;
        if (p.formato === 'csv') for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, i + 1)) newlines++;
        const progress = p.formato === 'csv' ? newlines / p.expectedRows : 0;
        if (progress >= (quarters.length + 1) / 4 && quarters.length < 4) quarters.push(toMB(readProcessMemory(stack.pid).rss));
      });
      res.on('end', () => resolve(first));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  out({
    figure: `export-movements-${p.formato}`, rows: p.formato === 'csv' ? newlines - 1 : p.expectedRows, mb: +(bytes / 1e6).toFixed(1), seconds: +seconds.toFixed(1),
    rows_per_second: Math.round(p.expectedRows / seconds), first_byte_ms: Math.round(firstByte),
    rss_before_mb: toMB(before), rss_peak_mb: toMB(peak), rss_growth_mb: +(toMB(peak) - toMB(before)).toFixed(1), rss_at_quarters_mb: quarters,
  });
}

async function csrfToken(client: BenchHttp): Promise<string> {
  const page = await client.request('GET', '/anagrafe/importa', { headers: { accept: 'text/html' } });
  const m = page.body.match(/name="_csrf" value="([^"]+)"/) ?? page.body.match(/_csrf=([^"&]+)/);
  if (!m) throw new Error(`no CSRF token on /anagrafe/importa (${page.status})`);
  return decodeURIComponent(m[1]!);
}

function rawPost(baseUrl: string, path: string, body: Buffer, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, baseUrl), { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
