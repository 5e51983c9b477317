import type { AppStack } from '../platform/app-stack';
import type { BenchHttp } from '../platform/load';

type Out = (o: Record<string, unknown>) => void;

interface RunAnswer {
  id: string; stato: string; totale: number; elaborati: number; eventi: number; decisioni: number; alert_nuovi: number; alert_aggiornati: number;
  errore: string | null; created_at: string; finished_at: string | null;
}

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * The replay of one year (docs/monitoring.md, "Replay"): POST /api/monitoring/replay over the
 * 365 days up to yesterday, as a tenant that imported its history starts it, followed through
 * GET /api/monitoring/esecuzioni/:id until it ends. The time is the run's own (its row's creation
 * to its end: the workflow, its chunks on the engine's queue, the alerts written). The alerts are
 * counted per typology from the alerts it raised.
 */
export async function replayFigure(stack: AppStack, client: BenchHttp, token: string, p: { codAzienda: string; customers: number; log: (m: string) => void; out: Out }) {
  const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' });
  const al = addDays(today, -1);
  const dal = addDays(al, -364);
  const started = performance.now();
  const a = await client.request('POST', '/api/monitoring/replay', { json: { dal, al }, headers: { 'x-csrf-token': token } });
  if (a.status !== 202 && a.status !== 201) throw new Error(`POST /api/monitoring/replay answered ${a.status}: ${a.body.slice(0, 400)}`);
  const id = (JSON.parse(a.body) as { id: string }).id;
  let run: RunAnswer;
  let last = 0;
  for (;;) {
    const r = await client.request('GET', `/api/monitoring/esecuzioni/${id}`);
    if (r.status === 200) {
      run = JSON.parse(r.body) as RunAnswer;
      if (run.stato !== 'running') break;
      if (run.elaborati - last >= 2_000) { p.log(`replay: ${run.elaborati} of ${run.totale} customers`); last = run.elaborati; }
    }
    if (performance.now() - started > 60 * 60_000) throw new Error('the replay did not end in an hour');
    await new Promise((res) => setTimeout(res, 500));
  }
  if (run.stato !== 'completed') throw new Error(`replay ${id} ended ${run.stato}: ${run.errore}`);
  const seconds = (Date.parse(run.finished_at!) - Date.parse(run.created_at)) / 1000;
  const byTypology = await stack.owner('monitoring_alert').where({ cod_azienda: p.codAzienda, origine: 'replay' })
    .groupBy('tipologia').select('tipologia').count('* as n') as { tipologia: string; n: string | number }[];
  p.out({
    figure: 'replay-one-year', path: 'POST /api/monitoring/replay (workflow, chunks on the engine queue)', dal, al, customers: run.totale, customers_in_tenant: p.customers,
    seconds: +seconds.toFixed(1), customers_per_second: +(run.totale / seconds).toFixed(1), events: run.eventi, alerts_new: run.alert_nuovi, alerts_updated: run.alert_aggiornati,
    alerts_per_typology: Object.fromEntries(byTypology.map((r) => [r.tipologia, Number(r.n)])), target: 'seconds < 600 for 20,000 customers',
  });
}
