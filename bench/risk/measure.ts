import { evaluateCondition } from '../../src/kit/conditions';
import { riskLists, type ProfiloRischio, type VersioneRegole } from '../../src/domains/risk';
import type { AppStack } from '../platform/app-stack';
import type { BenchHttp } from '../platform/load';

type Out = (o: Record<string, unknown>) => void;

export interface RunAnswer { id: string; stato: string; totale: number; elaborati: number; cambi: number; started_at: string; finished_at: string | null; riepilogo: Record<string, unknown>; errore: string | null }

/** The session's CSRF token, read from the scenarios page's form (API clients send it as X-CSRF-Token). */
export async function csrfToken(client: BenchHttp): Promise<string> {
  const page = await client.request('GET', '/rischio/scenari', { headers: { accept: 'text/html' } });
  const m = page.body.match(/name="_csrf" value="([^"]+)"/);
  if (!m) throw new Error(`no CSRF token on /rischio/scenari (${page.status})`);
  return m[1]!;
}

/**
 * A run through the API as a client starts it (POST /api/risk/runs), followed until it ends
 * (GET /api/risk/runs/:id every 250 ms). The time is the run's own, from its row: started_at to
 * finished_at, i.e. the workflow's work, not the polling.
 */
export async function timedRun(client: BenchHttp, token: string, body: { tipo: 'ricalcolo' | 'simulazione'; versione_id?: string }, log: (m: string) => void): Promise<{ run: RunAnswer; seconds: number; wall: number }> {
  const started = performance.now();
  const r = await client.request('POST', '/api/risk/runs', { json: body, headers: { 'x-csrf-token': token } });
  if (r.status !== 202) throw new Error(`POST /api/risk/runs answered ${r.status}: ${r.body.slice(0, 400)}`);
  const id = (JSON.parse(r.body) as RunAnswer).id;
  let last = 0;
  let refused = 0;
  for (;;) {
    const answer = await client.request('GET', `/api/risk/runs/${id}`);
    if (answer.status !== 200) {
      // A busy server may answer 503 for a moment (its pool shared with the worker): a client polls again.
      log(`GET /api/risk/runs/${id} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
      if (++refused > 20) throw new Error(`GET /api/risk/runs/${id} kept answering ${answer.status}`);
      await new Promise((res) => setTimeout(res, 1_000));
      continue;
    }
    const run = JSON.parse(answer.body) as RunAnswer;
    if (run.stato !== 'running') {
      if (run.stato !== 'completed') throw new Error(`run ${id} ended ${run.stato}: ${run.errore}`);
      return { run, seconds: (Date.parse(run.finished_at!) - Date.parse(run.started_at)) / 1000, wall: (performance.now() - started) / 1000 };
    }
    if (run.elaborati - last >= 20_000) { log(`${body.tipo}: ${run.elaborati} of ${run.totale}`); last = run.elaborati; }
    await new Promise((res) => setTimeout(res, 250));
  }
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * The class in force for the recalculation figure: the class the active version gives (from a
 * dry run of it), except for one customer in `every`, moved one class up, as a portfolio whose
 * last recalculation was a while ago: the run records every score and sends the few changes
 * to assessments, which is the steady state (the first run over a portfolio classified by
 * another method would start an assessment for most customers: a one-off, measured apart).
 */
export async function classesInForce(stack: AppStack, codAzienda: string, dryRunId: string, every: number, out: Out): Promise<void> {
  const r = await stack.owner.raw(`
    update anagrafe a set classe_rischio = case when (hashtext(a.cod_anagrafe) % ?) = 0
        then (array['medio','medio_alto','alto','alto'])[array_position(array['basso','medio','medio_alto','alto'], x.classe)] else x.classe end
      from rischio_esecuzioni_risultati x
     where x.esecuzione_id = ? and a.cod_azienda = ? and a.cod_anagrafe = x.cod_anagrafe`, [every, dryRunId, codAzienda]);
  await stack.owner.raw('vacuum (analyze) anagrafe');
  out({ figure: 'prepare-classes-in-force', customers: r.rowCount, note: `class in force = the active version's class, one customer in ${every} moved up` });
}

/** A customer's contributions by the interpreter (evaluateCondition per rule, the tree walked each time): the evaluation before compilation, for comparison. */
export function scoreInterpreted(versione: VersioneRegole, profilo: ProfiloRischio, aggregati: Record<string, number | null>, oggi: string): number {
  const ctx = { dati: profilo, aggregati, liste: riskLists(), oggi };
  const contributi: { codice: string; punti: number; letti: unknown }[] = [];
  for (const r of versione.regole) {
    if (!r.attiva) continue;
    const e = evaluateCondition(r.condizione, ctx);
    if (e.vero) contributi.push({ codice: r.codice, punti: r.punti, letti: e.letti });
  }
  return contributi.reduce((s, c) => s + c.punti, 0);
}
