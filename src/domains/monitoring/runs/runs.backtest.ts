import type { Knex } from 'knex';
import { replayCustomer, type CandidatoAlert } from '../engine';
import { addDays } from '../engine/engine.dates';
import { ruleSetFor, versionHash, type RuleVersionData } from '../evaluation/rule-set';
import type { MonitoringStore } from '../evaluation/store';
import { monitoringStore } from '../evaluation/store.current';
import type { RunRow } from './runs.repo';
import { storedPeers } from './runs.replay';

/**
 * A backtest's batch (docs/monitoring.md, "Rules, versions and release gates"): the draft and the
 * version in force of the same rule, each replayed on its own over the stored period for these
 * customers; the alerts each would have raised (first hit day, last hit day, hits, highest score)
 * kept per side in monitoring_backtest_alert. Nothing is raised. The draft's content is checked
 * against the hash the run was started with: a draft edited meanwhile ends the run (the gate
 * would not count it anyway).
 */

export class BacktestDraftChanged extends Error {
  readonly code = 'BOZZA_MODIFICATA';
  constructor() { super('La bozza è stata modificata durante il backtest: avviane uno nuovo'); this.name = 'BacktestDraftChanged'; }
}
export class BacktestDraftInvalid extends Error {
  readonly code = 'BOZZA_NON_VALUTABILE';
  constructor(motivo: string) { super(`La bozza non può essere valutata: ${motivo}`); this.name = 'BacktestDraftInvalid'; }
}

/** A version of a rule as the engine takes it (any state: a draft in a backtest). */
export async function ruleVersionData(trx: Knex.Transaction, codAzienda: string, versionId: string): Promise<(RuleVersionData & { stato: string; regola_id: string }) | undefined> {
  return trx('monitoring_regole_versioni as v').join('monitoring_regole as r', 'r.id', 'v.regola_id')
    .where({ 'v.cod_azienda': codAzienda, 'v.id': versionId })
    .first('v.id as versione_id', 'r.id as regola_id', 'r.cod_regola', 'r.nome', 'r.tipologia', 'v.versione', 'v.stato', 'v.condizione', 'v.ambito', 'v.livello',
      'v.punteggio', 'v.esito', 'v.finestra_dedup_giorni', 'v.indicatori') as Promise<(RuleVersionData & { stato: string; regola_id: string }) | undefined>;
}

interface SideAlert { chiave: string; cod_anagrafe: string; giorno: string; ultimo_giorno: string; punteggio: number; riscontri: number }

function alertsOf(candidati: readonly CandidatoAlert[]): SideAlert[] {
  const byAlert = new Map<string, SideAlert>();
  for (const c of candidati) {
    const a = byAlert.get(c.alert_id);
    if (!a) byAlert.set(c.alert_id, { chiave: c.alert_id, cod_anagrafe: c.cod_anagrafe, giorno: c.data_rilevazione, ultimo_giorno: c.data_rilevazione, punteggio: c.punteggio, riscontri: 1 });
    else { a.ultimo_giorno = c.data_rilevazione; a.riscontri++; a.punteggio = Math.max(a.punteggio, c.punteggio); }
  }
  return [...byAlert.values()];
}

export async function backtestBatch(trx: Knex.Transaction, run: RunRow, cods: readonly string[], opts: { store?: MonitoringStore } = {}) {
  const store = opts.store ?? monitoringStore();
  const codAzienda = run.cod_azienda;
  const draft = await ruleVersionData(trx, codAzienda, run.versione_id!);
  if (!draft || draft.stato !== 'bozza' || versionHash(draft) !== run.versione_hash) throw new BacktestDraftChanged();
  const active = run.attiva_id ? await ruleVersionData(trx, codAzienda, run.attiva_id) : undefined;
  const lists = await store.lists(trx, codAzienda);
  const sides: { lato: 'bozza' | 'attiva'; set: ReturnType<typeof ruleSetFor> }[] = [{ lato: 'bozza', set: ruleSetFor(codAzienda, [draft], lists, { drafts: true }) }];
  if (sides[0]!.set.escluse.length) throw new BacktestDraftInvalid(sides[0]!.set.escluse[0]!.motivo);
  if (active) sides.push({ lato: 'attiva', set: ruleSetFor(codAzienda, [active], lists) });
  const lookback = Math.max(...sides.map((s) => s.set.regole.giorni_storico));
  const profiles = await store.profiles(trx, codAzienda, cods);
  const histories = await store.histories(trx, codAzienda, cods, addDays(run.dal, -lookback), run.al);
  const peers = await storedPeers(trx, codAzienda, run.dal, run.al);
  let eventi = 0;
  let alertBozza = 0;
  const rows: (SideAlert & { lato: string })[] = [];
  for (const cod of cods) {
    const profilo = profiles.get(cod);
    if (!profilo) continue;
    const storico = histories.get(cod) ?? [];
    for (const side of sides) {
      const r = replayCustomer(side.set.regole, { profilo, storico, dal: run.dal, al: run.al, pari: (g) => peers(g) });
      if (side.lato === 'bozza') eventi += r.eventi;
      const alerts = alertsOf(r.candidati);
      if (side.lato === 'bozza') alertBozza += alerts.length;
      for (const a of alerts) rows.push({ ...a, lato: side.lato });
    }
  }
  for (let i = 0; i < rows.length; i += 1_000) {
    await trx('monitoring_backtest_alert').insert(rows.slice(i, i + 1_000).map((r) => ({ cod_azienda: codAzienda, esecuzione_id: run.id, ...r })))
      .onConflict(['esecuzione_id', 'lato', 'chiave']).merge(['giorno', 'ultimo_giorno', 'punteggio', 'riscontri']);
  }
  return { eventi, alertBozza };
}

/** A completed backtest's summary: alerts and customers per side, the customers only one side alerts. */
export async function summariseBacktest(trx: Knex.Transaction, run: RunRow) {
  const counts = await trx('monitoring_backtest_alert').where({ cod_azienda: run.cod_azienda, esecuzione_id: run.id })
    .groupBy('lato').select('lato', trx.raw('count(*)::int as alert'), trx.raw('count(distinct cod_anagrafe)::int as clienti')) as { lato: string; alert: number; clienti: number }[];
  const { rows: [split] } = await trx.raw<{ rows: { solo_bozza: number; solo_attiva: number; entrambe: number }[] }>(`
    select count(*) filter (where d and not a)::int as solo_bozza, count(*) filter (where a and not d)::int as solo_attiva, count(*) filter (where a and d)::int as entrambe
      from (select cod_anagrafe, bool_or(lato = 'bozza') as d, bool_or(lato = 'attiva') as a
              from monitoring_backtest_alert where cod_azienda = ? and esecuzione_id = ? group by cod_anagrafe) x`, [run.cod_azienda, run.id]);
  const side = (l: string) => counts.find((c) => c.lato === l);
  const giorni = (Date.parse(`${run.al}T00:00:00Z`) - Date.parse(`${run.dal}T00:00:00Z`)) / 86_400_000 + 1;
  return {
    alert_bozza: side('bozza')?.alert ?? 0, alert_attiva: run.attiva_id ? side('attiva')?.alert ?? 0 : null,
    clienti_bozza: side('bozza')?.clienti ?? 0, clienti_attiva: run.attiva_id ? side('attiva')?.clienti ?? 0 : null,
    solo_bozza: split?.solo_bozza ?? 0, solo_attiva: split?.solo_attiva ?? 0, entrambe: split?.entrambe ?? 0, giorni, clienti: run.totale,
  };
}

/** The alerts of a backtest per day and side (the chart), every day of the period present. */
export async function backtestPerDay(trx: Knex.Transaction, run: RunRow) {
  const rows = await trx('monitoring_backtest_alert').where({ cod_azienda: run.cod_azienda, esecuzione_id: run.id })
    .groupBy('giorno', 'lato').select(trx.raw('giorno::text as giorno'), 'lato', trx.raw('count(*)::int as n')) as { giorno: string; lato: string; n: number }[];
  const days: string[] = [];
  for (let d = run.dal; d <= run.al; d = addDays(d, 1)) days.push(d);
  const at = new Map(rows.map((r) => [`${r.giorno}|${r.lato}`, r.n]));
  return { giorni: days, bozza: days.map((d) => at.get(`${d}|bozza`) ?? 0), attiva: days.map((d) => at.get(`${d}|attiva`) ?? 0) };
}

/** The customers only one side alerts (or both, with `entrambe`), with each side's alert count. */
export async function backtestCustomers(trx: Knex.Transaction, run: RunRow, which: 'solo_bozza' | 'solo_attiva' | 'entrambe', limit = 200) {
  const having = which === 'solo_bozza' ? 'd > 0 and a = 0' : which === 'solo_attiva' ? 'a > 0 and d = 0' : 'a > 0 and d > 0';
  const { rows } = await trx.raw<{ rows: { cod_anagrafe: string; denominazione: string | null; d: number; a: number; primo: string }[] }>(`
    select x.cod_anagrafe, an.denominazione, x.d, x.a, x.primo from (
      select cod_anagrafe, count(*) filter (where lato = 'bozza')::int as d, count(*) filter (where lato = 'attiva')::int as a, min(giorno)::text as primo
        from monitoring_backtest_alert where cod_azienda = ? and esecuzione_id = ? group by cod_anagrafe) x
      left join anagrafe an on an.cod_azienda = ? and an.cod_anagrafe = x.cod_anagrafe
     where ${having} order by x.cod_anagrafe limit ?`, [run.cod_azienda, run.id, run.cod_azienda, limit]);
  return rows.map((r) => ({ cod_anagrafe: r.cod_anagrafe, denominazione: r.denominazione, alert_bozza: r.d, alert_attiva: r.a, primo_giorno: r.primo }));
}
