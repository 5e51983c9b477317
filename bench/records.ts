/**
 * Records benchmark (not a test; `npm run bench:records`): `npm start` on a throw-away data
 * directory, 100,000 customers and 10 million movements written inside PostgreSQL, then
 * - the customer list (API and page) and the movements list: server p50/p95 and requests/s;
 * - movement import rows/s: a CSV through POST /api/import/movimenti (the workflow), and the
 *   importer's insert path alone;
 * - the export of about a million movements (CSV and XLSX): time and the process's memory.
 * One JSON object per line. BENCH_CUSTOMERS, BENCH_MOVEMENTS, BENCH_IMPORT_ROWS, BENCH_EXPORT_ROWS scale it;
 * BENCH_ONLY=lists,import,export picks parts.
 */
import { startAppStack } from './platform/app-stack';
import { seedTenantAndSignIn } from './platform/seed';
import { exportFigure, importFigure, insertPathFigure, listFigure } from './records/measure';
import { seedRecords } from './records/seed';

const out = (o: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(o)}\n`);
const log = (m: string) => process.stderr.write(`[bench] ${new Date().toISOString().slice(11, 19)} ${m}\n`);
const num = (name: string, dflt: number) => Number(process.env[name] ?? dflt);
const only = new Set((process.env.BENCH_ONLY ?? 'lists,import,export').split(','));
const COD = 'BENCH';
const CUSTOMERS = num('BENCH_CUSTOMERS', 100_000);
const MOVEMENTS = num('BENCH_MOVEMENTS', 10_000_000);
const EXPORT_ROWS = num('BENCH_EXPORT_ROWS', 1_000_000);

const stack = await startAppStack(log);
try {
  const client = await seedTenantAndSignIn(stack, COD);
  const t0 = performance.now();
  await seedRecords(stack.owner, { codAzienda: COD, customers: CUSTOMERS, movements: MOVEMENTS, log });
  out({ figure: 'seed', customers: CUSTOMERS, movements: MOVEMENTS, seconds: +((performance.now() - t0) / 1000).toFixed(1) });

  if (only.has('lists')) {
    await listFigure(client, 'customers-api-first-page', '/api/anagrafe', 'application/json', out);
    await listFigure(client, 'customers-api-filtered', '/api/anagrafe?classe_rischio=alto&tipo=societa', 'application/json', out);
    await listFigure(client, 'customers-api-search-code', '/api/anagrafe?q=ANA-054321', 'application/json', out);
    await listFigure(client, 'customers-page', '/anagrafe', 'text/html', out);
    await listFigure(client, 'movements-api-customer', '/api/movimenti?cod_anagrafe=ANA-054321', 'application/json', out);
    await listFigure(client, 'movements-api-first-page', '/api/movimenti', 'application/json', out);
  }
  if (only.has('import')) {
    await insertPathFigure(stack, { codAzienda: COD, rows: num('BENCH_INSERT_ROWS', 100_000), customers: CUSTOMERS }, out);
    await importFigure(stack, client, { codAzienda: COD, rows: num('BENCH_IMPORT_ROWS', 200_000), customers: CUSTOMERS }, out);
  }
  if (only.has('export')) {
    // The most recent days holding about EXPORT_ROWS movements: a date range, as a reader would ask.
    const { rows: [range] } = await stack.owner.raw<{ rows: { dal: string; n: string }[] }>(`
      with days as (select data_operazione d, count(*) n from movimenti where cod_azienda = ? group by 1),
      cum as (select d, sum(n) over (order by d desc) c from days)
      select (select min(d) from cum where c <= ?)::text as dal, (select max(c) from cum where c <= ?)::text as n`, [COD, EXPORT_ROWS, EXPORT_ROWS]);
    const expected = Number(range!.n);
    await exportFigure(stack, client, { formato: 'csv', query: `dal=${range!.dal}`, expectedRows: expected }, out);
    if (process.env.BENCH_EXPORT_XLSX !== '0') await exportFigure(stack, client, { formato: 'xlsx', query: `dal=${range!.dal}`, expectedRows: expected }, out);
  }
  client.close();
} finally {
  await stack.stop();
}
