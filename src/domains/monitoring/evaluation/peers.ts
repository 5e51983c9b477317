import type { Knex } from 'knex';
import { MIN_PEERS, peerAggregates, peerBaseAggregate, peerGroup, StoricoIndicizzato, type Giorno } from '../engine';
import { computeAggregate } from '../engine/engine.aggregates';
import { addDays, dayNumber } from '../engine/engine.dates';
import { ruleSetFor } from './rule-set';
import type { MonitoringStore } from './store';
import { monitoringStore } from './store.current';

/**
 * The peer medians of a day (docs/monitoring.md, peer_ratio): for every peer_ratio the rules in
 * force read, the median of its base aggregate (window sum or count) among the customers of each
 * peer group who moved in the window, the customers read page by page so a large tenant never
 * sits in memory at once. Stored in monitoring_statistiche_pari for that day: the daily batch and
 * real time read them from there (store.peerStatistics).
 */

export const PEER_PAGE = 500;

function median(values: number[]): number {
  values.sort((x, y) => x - y);
  const mid = values.length >> 1;
  return values.length % 2 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}

export async function computePeerStatistics(
  trx: Knex.Transaction, codAzienda: string, giorno: Giorno, opts: { store?: MonitoringStore; heartbeat?: () => void } = {},
): Promise<{ clienti: number; gruppi: number; aggregati: number }> {
  const store = opts.store ?? monitoringStore();
  const set = ruleSetFor(codAzienda, await store.activeRules(trx, codAzienda), await store.lists(trx, codAzienda));
  const aggregates = peerAggregates(set.regole);
  if (!aggregates.length) return { clienti: 0, gruppi: 0, aggregati: 0 };
  const window = Math.max(...aggregates.map((a) => a.finestra_giorni));
  const dal = addDays(giorno, -(window - 1));
  const t = dayNumber(giorno);
  const values = new Map<string, Map<string, number[]>>();
  let after = '';
  let clienti = 0;
  for (;;) {
    const { rows } = await trx.raw<{ rows: { cod_anagrafe: string }[] }>(`
      select cod_anagrafe from (
        (select distinct cod_anagrafe from movimenti where cod_azienda = ? and data_operazione between ? and ? and cod_anagrafe > ? order by 1 limit ?)
        union (select distinct cod_anagrafe from kyt_eventi where cod_azienda = ? and giorno between ? and ? and cod_anagrafe > ? order by 1 limit ?)
      ) c order by 1 limit ?`, [codAzienda, dal, giorno, after, PEER_PAGE, codAzienda, dal, giorno, after, PEER_PAGE, PEER_PAGE]);
    if (!rows.length) break;
    const cods = rows.map((r) => r.cod_anagrafe);
    const profiles = await store.profiles(trx, codAzienda, cods);
    const histories = await store.histories(trx, codAzienda, cods, dal, giorno);
    for (const cod of cods) {
      const profilo = profiles.get(cod);
      if (!profilo) continue;
      clienti++;
      const h = StoricoIndicizzato.fromMovements(histories.get(cod) ?? []);
      const point = { h, end: h.lowerBound(t + 1), t, evento: -1, rapporto: -1 };
      const group = peerGroup(profilo);
      const byKey = values.get(group) ?? values.set(group, new Map()).get(group)!;
      for (const a of aggregates) {
        const { aggregate, key } = peerBaseAggregate(a);
        const v = computeAggregate(point, aggregate, set.regole.liste);
        if (v === null || v <= 0) continue;
        (byKey.get(key) ?? byKey.set(key, []).get(key)!).push(v);
      }
    }
    opts.heartbeat?.();
    after = cods.at(-1)!;
  }
  const mediane: Record<string, Record<string, number>> = {};
  let aggregati = 0;
  for (const [group, byKey] of values) {
    for (const [key, list] of byKey) {
      if (list.length < MIN_PEERS) continue;
      (mediane[group] ??= {})[key] = median(list);
      aggregati++;
    }
  }
  await trx('monitoring_statistiche_pari').insert({ cod_azienda: codAzienda, giorno, mediane: JSON.stringify(mediane), clienti })
    .onConflict(['cod_azienda', 'giorno']).merge(['mediane', 'clienti', 'created_at']);
  return { clienti, gruppi: Object.keys(mediane).length, aggregati };
}
