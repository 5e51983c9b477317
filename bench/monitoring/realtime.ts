import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { withTenant } from '../../src/db/tenant';
import { platformStore, type MonitoringStore } from '../../src/domains/monitoring';
import { evaluateEvent, type MovimentoMonitorato, type ProfiloCliente } from '../../src/domains/monitoring/engine';
import { evaluateEvents } from '../../src/domains/monitoring/evaluation/realtime';
import { ruleSetFor } from '../../src/domains/monitoring/evaluation/rule-set';
import { treeCpuMs } from '../lib/process-cpu';
import type { AppStack } from '../platform/app-stack';
import { closedLoop, serverMs, type BenchHttp } from '../platform/load';
import { percentile } from '../risk/measure';

type Out = (o: Record<string, unknown>) => void;

const pick = (n: number) => 1 + Math.floor(Math.random() * n);
const code = (prefix: string, i: number) => `${prefix}-${String(i).padStart(6, '0')}`;
const today = () => new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' });

/** A movement as a core banking system posts it: a customer at random, today, one of the everyday kinds (one in eight in cash). */
function movement(customers: number, key: string) {
  const r = Math.random();
  const cash = r < 0.125;
  const amount = Math.round((cash ? 50 + Math.random() * 4_000 : 10 + Math.random() ** 3 * 12_000) * 100) / 100;
  return {
    cod_rapporto: code('RAP', pick(customers)), data_operazione: today(), ora_operazione: new Date().toISOString().slice(11, 19),
    importo: amount, segno: r < 0.45 ? 'entrata' : 'uscita', contanti: cash,
    causale: cash ? 'Versamento contanti' : 'Bonifico', canale: cash ? 'sportello' : 'home banking',
    ...(cash ? {} : { controparte_nome: `Controparte ${Math.floor(Math.random() * 5_000)}`, controparte_paese: Math.random() < 0.97 ? 'IT' : 'AE' }),
    chiave_esterna: key,
  };
}

/** A transfer of a customer's wallet (named by the sender, the direction given). */
function kytEvent(customers: number) {
  const hex = () => `0x${randomUUID().replaceAll('-', '')}${randomUUID().replaceAll('-', '').slice(0, 8)}`;
  const eur = Math.round((20 + Math.random() ** 2 * 20_000) * 100) / 100;
  return {
    chain: 'ethereum', hash: `0x${randomUUID().replaceAll('-', '')}${randomUUID().replaceAll('-', '')}`, indirizzo_da: hex(), indirizzo_a: hex(), asset: 'ETH',
    importo: (eur / 3_000).toFixed(6), importo_eur: eur, data_ora: new Date().toISOString(), cod_anagrafe: code('ANA', pick(customers)),
    direzione: Math.random() < 0.5 ? 'entrata' : 'uscita',
  };
}

interface Decided { stato: string; esito?: string }

/**
 * The real path under load: `concurrency` clients each posting the next request when the previous
 * one answered, every answer carrying each event's decision. `batch` events per request (1: one
 * movement per request, the latency a teller's system sees). Pending decisions (the evaluation
 * failed or took longer than 5 s) are counted, not hidden.
 */
export async function realPathFigure(client: BenchHttp, token: string, p: {
  what: 'movimenti' | 'kyt'; customers: number; concurrency: number; seconds: number; batch: number; out: Out;
  /** The app's process: its CPU (and its PostgreSQL's) per event is reported beside the rate. */
  appPid?: number;
  /** The app's CPU rate when idle (idleCpuMsPerSecond), taken off the figure's CPU. */
  idleCpuMsPerSecond?: number;
}) {
  let events = 0;
  let pending = 0;
  let alerts = 0;
  const run = randomUUID().slice(0, 8);
  const headers = { 'x-csrf-token': token };
  const cpu0 = p.appPid ? treeCpuMs(p.appPid) : undefined;
  const figures = await closedLoop({
    concurrency: p.concurrency, seconds: p.seconds,
    send: async (i) => {
      const body = p.what === 'movimenti'
        ? { movimenti: Array.from({ length: p.batch }, (_, k) => movement(p.customers, `RT-${run}-${i}-${k}`)) }
        : { eventi: Array.from({ length: p.batch }, () => kytEvent(p.customers)) };
      const a = await client.request('POST', p.what === 'movimenti' ? '/api/movimenti' : '/api/kyt/events', { json: body, headers });
      if (a.status !== 201) return { ok: false, what: `${a.status} ${a.body.slice(0, 300)}` };
      const items = (JSON.parse(a.body) as Record<string, { decisione?: Decided }[]>)[p.what === 'movimenti' ? 'movimenti' : 'eventi']!;
      for (const it of items) {
        events++;
        if (it.decisione?.stato !== 'valutata') pending++;
        else if (it.decisione.esito !== 'nessuna_anomalia') alerts++;
      }
      return { ok: true, serverMs: serverMs(a) };
    },
  });
  const cpu1 = p.appPid ? treeCpuMs(p.appPid) : undefined;
  const cpuPerEvent = cpu0 !== undefined && cpu1 !== undefined && events
    ? +((cpu1 - cpu0 - (p.idleCpuMsPerSecond ?? 0) * figures.seconds) / events).toFixed(2) : undefined;
  p.out({
    figure: `real-path-${p.what}${p.batch > 1 ? `-batch-${p.batch}` : ''}`,
    path: p.what === 'movimenti' ? 'POST /api/movimenti (answered with each decision)' : 'POST /api/kyt/events (answered with each decision)',
    concurrency: p.concurrency, events_per_request: p.batch, requests: figures.requests, events, seconds: figures.seconds,
    events_per_second: +(events / figures.seconds).toFixed(1), request_p50_ms: figures.p50_ms, request_p99_ms: figures.p99_ms,
    ...(figures.server_p50_ms !== undefined ? { server_p50_ms: figures.server_p50_ms } : {}),
    decisions_pending: pending, decisions_not_clean: alerts, target: '>= 2,000 events/s, p50 and p99 < 50 ms',
    // The app's CPU (Node, PostgreSQL, Temporal) per event, its idle rate taken off, whatever else the machine ran; and what 2 idle cores would allow at that cost.
    ...(cpuPerEvent !== undefined ? {
      app_cpu_ms_per_event: cpuPerEvent, app_idle_cpu_ms_per_s: p.idleCpuMsPerSecond === undefined ? null : Math.round(p.idleCpuMsPerSecond),
      events_per_second_2_idle_cores: Math.round(2_000 / cpuPerEvent),
    } : {}),
  });
}

/** The platform store with the time of each read added up, and the last profiles and histories kept (to time the engine on the same input). */
function timedStore(base: MonitoringStore) {
  const ms = { profiles: 0, histories: 0, rules_lists_peers: 0 };
  let last: { profiles?: Map<string, ProfiloCliente>; histories?: Map<string, MovimentoMonitorato[]> } = {};
  const time = <A extends unknown[], R>(key: keyof typeof ms, fn: (...a: A) => Promise<R>, keep?: (r: R) => void) => async (...a: A) => {
    const s = performance.now();
    const r = await fn(...a);
    ms[key] += performance.now() - s;
    keep?.(r);
    return r;
  };
  const store: MonitoringStore = {
    profiles: time('profiles', base.profiles, (r) => { last.profiles = r; }),
    histories: time('histories', base.histories, (r) => { last.histories = r; }),
    lists: time('rules_lists_peers', base.lists),
    activeRules: time('rules_lists_peers', base.activeRules),
    peerStatistics: time('rules_lists_peers', base.peerStatistics),
    stamped: base.stamped,
  };
  return { store, ms, last: () => last, reset: () => { ms.profiles = 0; ms.histories = 0; ms.rules_lists_peers = 0; last = {}; } };
}

/** `n` movements of today for customers at random, written by the owner (not timed): the events the evaluation path is given. */
async function eventsOfToday(owner: Knex, codAzienda: string, customers: number, n: number) {
  const { rows } = await owner.raw<{ rows: { id: string; cod_anagrafe: string; giorno: string }[] }>(`
    insert into movimenti (id, cod_azienda, cod_rapporto, cod_anagrafe, data_operazione, ora_operazione, importo, valuta, importo_eur, segno, causale, canale, contanti,
      controparte_nome, controparte_paese, chiave_esterna, created_by)
    select gen_random_uuid(), :cod, 'RAP-' || lpad(c::text, 6, '0'), 'ANA-' || lpad(c::text, 6, '0'), current_date, localtime(0), a, 'EUR', a,
      case when random() < 0.45 then 'entrata' else 'uscita' end, 'Bonifico', 'home banking', random() < 0.125, 'Controparte ' || floor(random() * 5000), 'IT',
      'INPROC-' || gen_random_uuid(), 'bench'
    from (select 1 + floor(random() * :c)::int c, round((10 + random() ^ 3 * 12000)::numeric, 2) a from generate_series(1, :n)) s
    returning id, cod_anagrafe, data_operazione::text as giorno`, { cod: codAzienda, c: customers, n });
  return rows;
}

/**
 * The evaluation path alone, in this process against the app's PostgreSQL: evaluateEvents (what
 * the movements' evaluator calls after POST /api/movimenti commits) for one event per tenant
 * transaction, store reads and the recording of decisions and alerts included. First one at a
 * time, each event's time split into its store reads, the engine's evaluation (evaluateEvent,
 * timed again on the same input) and the rest (recording the decision and its alerts, the
 * transaction); then `concurrency` at a time for the throughput.
 */
export async function evaluationPathFigure(stack: AppStack, p: { codAzienda: string; customers: number; samples: number; concurrency: number; out: Out }) {
  const { codAzienda } = p;
  const timed = timedStore(platformStore);
  const one = async (e: { id: string; cod_anagrafe: string; giorno: string }, store: MonitoringStore) => withTenant(stack.deps.db, { codAzienda, actor: 'bench' }, async (trx) => {
    const d = await evaluateEvents(trx, codAzienda, [{ fonte: 'movimento', id: e.id, cod_anagrafe: e.cod_anagrafe, giorno: e.giorno }], { store, actor: 'bench' });
    if (!d.get(e.id)) throw new Error(`no decision for ${e.id}`);
    return d.get(e.id)!;
  });

  const sequential = await eventsOfToday(stack.owner, codAzienda, p.customers, p.samples + 20);
  const rows: { total: number; profiles: number; histories: number; other_reads: number; engine: number; history_len: number }[] = [];
  for (const [i, e] of sequential.entries()) {
    timed.reset();
    const s = performance.now();
    await one(e, timed.store);
    const total = performance.now() - s;
    // The engine alone on the same input (the rule set is the cached one the path used).
    const { profiles, histories } = timed.last();
    const storico = histories!.get(e.cod_anagrafe)!;
    const set = await withTenant(stack.deps.db, { codAzienda, actor: 'bench' }, async (trx) => ruleSetFor(codAzienda, await platformStore.activeRules(trx, codAzienda), await platformStore.lists(trx, codAzienda)));
    const t = performance.now();
    evaluateEvent(set.regole, { profilo: profiles!.get(e.cod_anagrafe)!, storico, evento: storico.find((m) => m.id === e.id)!, pari: undefined });
    const engine = performance.now() - t;
    if (i >= 20) rows.push({ total, profiles: timed.ms.profiles, histories: timed.ms.histories, other_reads: timed.ms.rules_lists_peers, engine, history_len: storico.length });
  }
  const med = (k: keyof (typeof rows)[number]) => +percentile(rows.map((r) => r[k]).sort((a, b) => a - b), 50).toFixed(2);
  const p99 = (k: keyof (typeof rows)[number]) => +percentile(rows.map((r) => r[k]).sort((a, b) => a - b), 99).toFixed(2);
  p.out({
    figure: 'evaluation-path-one-event', path: 'evaluateEvents in process, one event per tenant transaction (store reads and recording included)', samples: rows.length,
    p50_ms: med('total'), p99_ms: p99('total'),
    median_split_ms: { profile: med('profiles'), history: med('histories'), rules_lists_peers: med('other_reads'), engine: med('engine'),
      recording_and_transaction: +(med('total') - med('profiles') - med('histories') - med('other_reads') - med('engine')).toFixed(2) },
    history_movements_p50: med('history_len'), history_movements_p99: p99('history_len'),
  });

  const parallel = await eventsOfToday(stack.owner, codAzienda, p.customers, p.samples * 2);
  let next = 0;
  const times: number[] = [];
  const started = performance.now();
  await Promise.all(Array.from({ length: p.concurrency }, async () => {
    while (next < parallel.length) {
      const e = parallel[next++]!;
      const s = performance.now();
      await one(e, platformStore);
      times.push(performance.now() - s);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  p.out({
    figure: 'evaluation-path-concurrent', path: 'evaluateEvents in process, one event per tenant transaction', concurrency: p.concurrency, events: times.length,
    seconds: +seconds.toFixed(2), events_per_second: +(times.length / seconds).toFixed(1), p50_ms: +percentile(times, 50).toFixed(2), p99_ms: +percentile(times, 99).toFixed(2),
  });
}
