import { aggregateKey, requiredAggregates, type Aggregato } from '../../../kit/conditions';
import { computeAggregate, type Punto } from './engine.aggregates';
import { atecoSection } from './engine.ateco';
import { dayNumber } from './engine.dates';
import type { RegolePreparate } from './engine.rules';
import { StoricoIndicizzato } from './engine.history';
import type { Giorno, MovimentoMonitorato, ProfiloCliente, StatistichePari } from './engine.types';

/**
 * Peers: customers of the same kind (tipo_soggetto) and ATECO section (`-` without one: persons
 * mostly). peer_ratio compares a customer's window with the median of the group's customers that
 * moved in that window (those with a zero would make most medians zero); a group with fewer than
 * MIN_PEERS such customers has no median, and peer_ratio is then missing. The daily batch computes
 * the medians (peerStatistics) for the day and passes them to the evaluations.
 */

export const MIN_PEERS = 5;

export const peerGroup = (p: Pick<ProfiloCliente, 'tipo_soggetto' | 'ateco'>) => `${p.tipo_soggetto}:${atecoSection(p.ateco) ?? '-'}`;

const bases = new WeakMap<Aggregato, { aggregate: Aggregato; key: string }>();
/** What a peer_ratio compares: its window's sum (or count, `misura: numero`) with the same filters, at the customer's level (peers are customers). */
export function peerBaseAggregate(a: Aggregato): { aggregate: Aggregato; key: string } {
  let b = bases.get(a);
  if (!b) {
    const { misura, livello: _level, ...rest } = a;
    const aggregate: Aggregato = { ...rest, fn: misura === 'numero' ? 'count' : 'sum' };
    b = { aggregate, key: aggregateKey(aggregate) };
    bases.set(a, b);
  }
  return b;
}

/** The peer_ratio aggregates a rule set reads. */
export function peerAggregates(regole: RegolePreparate): Aggregato[] {
  return requiredAggregates(regole.versioni.map((v) => v.condizione)).filter((a) => a.fn === 'peer_ratio');
}

function median(values: number[]): number {
  values.sort((x, y) => x - y);
  const mid = values.length >> 1;
  return values.length % 2 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}

/**
 * The medians for `giorno` (windows ending at that day's close) over the given customers: one pass
 * per customer over the peer_ratio aggregates the rules read.
 */
export function peerStatistics(
  regole: RegolePreparate, clienti: Iterable<{ profilo: ProfiloCliente; storico: readonly MovimentoMonitorato[] | StoricoIndicizzato }>, giorno: Giorno,
): StatistichePari {
  const aggregates = peerAggregates(regole);
  const values = new Map<string, Map<string, number[]>>();
  if (aggregates.length) {
    const t = dayNumber(giorno);
    for (const { profilo, storico } of clienti) {
      const h = storico instanceof StoricoIndicizzato ? storico : StoricoIndicizzato.fromMovements(storico);
      const p: Punto = { h, end: h.lowerBound(t + 1), t, evento: -1, rapporto: -1 };
      const group = peerGroup(profilo);
      let byKey = values.get(group);
      if (!byKey) { byKey = new Map(); values.set(group, byKey); }
      for (const a of aggregates) {
        const { aggregate, key } = peerBaseAggregate(a);
        const v = computeAggregate(p, aggregate, regole.liste);
        if (v === null || v <= 0) continue;
        let list = byKey.get(key);
        if (!list) { list = []; byKey.set(key, list); }
        list.push(v);
      }
    }
  }
  const mediane: Record<string, Record<string, number>> = {};
  for (const [group, byKey] of values) {
    for (const [key, list] of byKey) if (list.length >= MIN_PEERS) (mediane[group] ??= {})[key] = median(list);
  }
  return { giorno, mediane };
}
