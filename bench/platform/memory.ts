import { AREAS } from '../../src/areas';
import { readRss, settledRss, toMB } from '../lib/rss';
import type { AppStack } from './app-stack';
import type { BenchHttp } from './load';

/** Resident memory of a process now, in MB. */
export const rssMb = (pid: number): number => toMB(readRss(pid));

/** Open workflows of the app's task queue, as Temporal counts them. */
async function openWorkflows(stack: AppStack): Promise<number> {
  const client = await stack.deps.temporal.get();
  const { count } = await client.workflow.count(`ExecutionStatus = 'Running' AND TaskQueue = '${stack.deps.config.temporal.taskQueue}'`);
  return count;
}

/** RSS once the process is idle and V8 has given back what it will (bench/lib/rss.ts), in MB. */
export const settledMb = async (pid: number): Promise<number> => toMB((await settledRss(pid)).rss);

/**
 * The `npm start` process's memory: after start with the sanctions lists imported, with the
 * case workflows the other figures left open, and after every list page of the navigation
 * was opened once (their templates, queries and the sanctions index loaded).
 */
export async function memoryFigures(stack: AppStack, http: BenchHttp, idleMb: number, out: (o: Record<string, unknown>) => void) {
  const withWorkflows = await settledMb(stack.pid);
  const open = await openWorkflows(stack);
  const pages = [...new Set(AREAS.flatMap((a) => a.navigation ?? []).filter((n) => n.roles?.includes('co') ?? true).map((n) => n.href))];
  const opened: string[] = [];
  for (const href of pages) {
    const r = await http.request('GET', href, { headers: { accept: 'text/html' } });
    if (r.status === 200) opened.push(href);
  }
  // A name screened once: the matcher's index is built if it was not yet.
  const screened = await http.request('POST', '/api/v1/screening/run', { json: { nome: 'Mario Rossi', tipo: 'person' } });
  const loaded = await settledMb(stack.pid);
  out({
    figure: 'memory', process: 'npm start (web and worker)', idle_after_start_mb: idleMb, open_workflows: open,
    with_open_workflows_mb: withWorkflows, after_every_list_page_mb: loaded, pages_opened: opened.length, pages_listed: pages.length,
    screening_check_status: screened.status, target: 'after_every_list_page_mb <= 500 with 1,000 open workflows',
  });
}
