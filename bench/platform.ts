/**
 * Platform benchmark (not a test): `npm start` as a new user runs it, on throw-away data,
 * measured side by side with baselines in the same run: a bare Temporal workflow on its own
 * task queue (transitions, creation) and a bare Koa + pg handler running the same SQL
 * (lists). Prints one JSON object per line; BENCH_ONLY=processes,lists,memory picks parts.
 */
import { startAppStack } from './platform/app-stack';
import { processFigures } from './platform/processes';
import { listFigures } from './platform/lists';
import { memoryFigures, rssMb, settledMb } from './platform/memory';
import { seedTenantAndSignIn } from './platform/seed';

const out = (o: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(o)}\n`);
const log = (m: string) => process.stderr.write(`[bench] ${m}\n`);
const only = new Set((process.env.BENCH_ONLY ?? 'processes,lists,memory').split(','));
const CASES = Number(process.env.BENCH_CASES ?? 1000);

const stack = await startAppStack(log);
try {
  const http = await seedTenantAndSignIn(stack, 'BENCH');
  const idleMb = only.has('memory') ? await settledMb(stack.pid) : rssMb(stack.pid);
  if (only.has('processes')) await processFigures(stack, http, { cases: CASES, sequential: 200 }, out);
  if (only.has('lists')) await listFigures(stack, http, { codAzienda: 'BENCH', rows: Number(process.env.BENCH_LIST_ROWS ?? 100_000), total: Number(process.env.BENCH_LIST_TOTAL ?? 1_000_000), seconds: 10 }, out);
  if (only.has('memory')) await memoryFigures(stack, http, idleMb, out);
  http.close();
} finally {
  await stack.stop();
}
