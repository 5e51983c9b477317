import assert from 'node:assert/strict';
import { aggregateKey, describeCondition, validateCondition, type Aggregato } from '../../src/kit/conditions';
import { StoricoIndicizzato, prepareRules } from '../../src/domains/monitoring/engine';
import { computeAggregate } from '../../src/domains/monitoring/engine/engine.aggregates';
import { addDays, dayNumber } from '../../src/domains/monitoring/engine/engine.dates';

/** ratio_last_year: the window against the same days one year earlier (last year's season). */

let n = 0;
const move = (day: string, importo: number, over: Record<string, unknown> = {}) => ({
  id: `m${++n}`, cod_anagrafe: 'C-1', cod_rapporto: 'R-1', data_operazione: day, importo_eur: importo, segno: 'entrata' as const, contanti: false, ...over,
});
const at = (moves: ReturnType<typeof move>[], day: string, a: Aggregato) => {
  const h = StoricoIndicizzato.fromMovements([...moves].sort((x, y) => x.data_operazione.localeCompare(y.data_operazione)));
  const t = dayNumber(day);
  return computeAggregate({ h, end: h.lowerBound(t + 1), t, evento: -1, rapporto: -1 }, a, {});
};

describe('monitoring engine: ratio_last_year', () => {
  const OGGI = '2026-08-20';
  const season = (year: number, each: number) => Array.from({ length: 10 }, (_, i) => move(`${year}-08-${String(5 + i).padStart(2, '0')}`, each));

  it('a season like last year\'s is about 1: no spike (no hit on "more than twice last year")', () => {
    const moves = [...season(2025, 1_000), ...season(2026, 1_100), move('2026-02-10', 50)];
    const r = at(moves, OGGI, { fn: 'ratio_last_year', finestra_giorni: 30 });
    assert.ok(r !== null && Math.abs(r - 1.1) < 1e-9, `got ${r}`);
  });

  it('a window many times last year\'s same days is a spike (hit), counted by amount or by number', () => {
    const moves = [...season(2025, 1_000), ...season(2026, 1_000), ...Array.from({ length: 20 }, () => move('2026-08-18', 2_000))];
    assert.equal(at(moves, OGGI, { fn: 'ratio_last_year', finestra_giorni: 30 }), 5);
    assert.equal(at(moves, OGGI, { fn: 'ratio_last_year', finestra_giorni: 30, misura: 'numero' }), 3);
  });

  it('reads only the same window a year earlier: the months around it do not count', () => {
    // Last year the money came in July and September, never in the 30 days ending on 2025-08-20.
    const moves = [move('2025-07-10', 5_000), move('2025-09-10', 5_000), move('2025-07-21', 5_000), ...season(2026, 1_000)];
    assert.equal(at(moves, OGGI, { fn: 'ratio_last_year', finestra_giorni: 30 }), null, 'nothing then: missing');
    // 2025-07-22 is the first day of the window a year back ((t − 365 − 30, t − 365]).
    assert.equal(at([...moves, move('2025-07-22', 2_000)], OGGI, { fn: 'ratio_last_year', finestra_giorni: 30 }), 5);
    assert.equal(addDays(OGGI, -365 - 29), '2025-07-22');
  });

  it('is missing without a history that reaches back a year (a new customer), and honours the filters', () => {
    assert.equal(at(season(2026, 1_000), OGGI, { fn: 'ratio_last_year', finestra_giorni: 30 }), null);
    const moves = [...season(2025, 1_000), move('2025-08-10', 4_000, { contanti: true }), move('2026-08-10', 12_000, { contanti: true }), ...season(2026, 1_000)];
    assert.equal(at(moves, OGGI, { fn: 'ratio_last_year', finestra_giorni: 30, contanti: true }), 3);
    assert.equal(at(moves, OGGI, { fn: 'ratio_last_year', finestra_giorni: 30, contanti: false }), 1);
  });

  it('is part of the language: validated, keyed, described, and the engine loads a year and the window before a point', () => {
    assert.deepEqual(validateCondition({ aggregato: { fn: 'ratio_last_year', finestra_giorni: 7, misura: 'numero' }, op: 'gt', valore: 3 }), []);
    assert.deepEqual(validateCondition({ aggregato: { fn: 'ratio_last_year', finestra_giorni: 7, storico_giorni: 28 }, op: 'gt', valore: 3 }), []);
    for (const storico_giorni of [3, 366]) {
      assert.deepEqual(validateCondition({ aggregato: { fn: 'ratio_last_year', finestra_giorni: 7, storico_giorni }, op: 'gt', valore: 3 }).map((i) => i.path.join('.')),
        ['aggregato.storico_giorni'], `storico ${storico_giorni}`);
    }
    assert.equal(aggregateKey({ fn: 'ratio_last_year', finestra_giorni: 7, storico_giorni: 7 }), 'ratio_last_year:7', 'the default spelled out: the same key');
    assert.equal(aggregateKey({ fn: 'ratio_last_year', finestra_giorni: 7, storico_giorni: 28 }), 'ratio_last_year:7:storico=28');
    assert.equal(aggregateKey({ fn: 'ratio_last_year', finestra_giorni: 7, misura: 'numero' }), 'ratio_last_year:7:misura=numero');
    assert.match(describeCondition({ aggregato: { fn: 'ratio_last_year', finestra_giorni: 30 }, op: 'gt', valore: 2 }), /stessi giorni di un anno prima/);
    const set = prepareRules([{ id: 'v', cod_regola: 'r', versione: 1, tipologia: 'picco_volume', ambito: 'giornaliero', livello: 'cliente', punteggio: 50, esito: 'alert',
      finestra_dedup_giorni: 30, condizione: { aggregato: { fn: 'ratio_last_year', finestra_giorni: 30 }, op: 'gt', valore: 2 } } as never], {});
    assert.equal(set.giorni_storico, 395);
  });

  it('with storico_giorni: the average over that many days centred on the same window a year back (one noisy week is not the normal)', () => {
    // A week a year back with 2 operations, the three weeks around it with 8 each: 26 in 28 days, 6.5 a week.
    const lastYear = [...Array.from({ length: 2 }, () => move('2025-08-18', 100)),
      ...Array.from({ length: 8 }, () => move('2025-08-06', 100)), ...Array.from({ length: 8 }, () => move('2025-08-10', 100)), ...Array.from({ length: 8 }, () => move('2025-08-24', 100))];
    const now = Array.from({ length: 13 }, () => move('2026-08-19', 100));
    assert.equal(at([...lastYear, ...now], OGGI, { fn: 'ratio_last_year', finestra_giorni: 7, misura: 'numero' }), 6.5, 'against the one week: a spike');
    assert.equal(at([...lastYear, ...now], OGGI, { fn: 'ratio_last_year', finestra_giorni: 7, storico_giorni: 28, misura: 'numero' }), 2, 'against the four weeks: twice the normal');
    // The 28 days: 2025-08-03 .. 2025-08-30 (the week a year back, 2025-08-14 .. 2025-08-20, with 10 days after it and 11 before).
    const r = (extra: ReturnType<typeof move>) => at([...lastYear, ...now, extra], OGGI, { fn: 'ratio_last_year', finestra_giorni: 7, storico_giorni: 28, misura: 'numero' });
    assert.equal(r(move('2025-08-02', 100)), 2);
    assert.equal(r(move('2025-08-31', 100)), 2);
    assert.equal(r(move('2025-08-03', 100)), 13 / (27 / 4));
    assert.equal(r(move('2025-08-30', 100)), 13 / (27 / 4));
    const set = prepareRules([{ id: 'v', cod_regola: 'r', versione: 1, tipologia: 'picco_velocita', ambito: 'giornaliero', livello: 'cliente', punteggio: 50, esito: 'alert',
      finestra_dedup_giorni: 30, condizione: { aggregato: { fn: 'ratio_last_year', finestra_giorni: 7, storico_giorni: 28 }, op: 'gt', valore: 2 } } as never], {});
    assert.equal(set.giorni_storico, 365 - 10 + 28);
  });
});
