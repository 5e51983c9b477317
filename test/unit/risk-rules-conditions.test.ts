import assert from 'node:assert/strict';
import { z } from 'zod';
import {
  aggregateKey, ConditionBudgetError, ConditionEvaluationError, conditionSchema, conditionSchemaWith, describeCondition, evaluateCondition,
  MAX_NODES, requiredAggregates, validateCondition, type Aggregato, type Condizione,
} from '../../src/kit/conditions';
import type { ContestoCondizione } from '../../src/kit/conditions/condition.evaluate';

const OGGI = '2026-11-23';
const dati = {
  cliente: { pep: true, tipo_soggetto: 'societa', eta_anni: 45, nascita: '1981-05-02', attivita: null, settore: '' },
  geografia: { paesi: ['IT', 'ir'], paese_residenza: 'it', paesi_controparti: [] as string[] },
  dichiarato: { volume_annuo_eur: 100_000 },
};
const liste = { alto: new Set(['IR', 'KP']), ue: new Set(['IT', 'DE', 'FR']) };
const ctx = (over: Partial<ContestoCondizione> = {}): ContestoCondizione => ({ dati, aggregati: {}, liste, oggi: OGGI, ...over });
const run = (c: Condizione, over: Partial<ContestoCondizione> = {}) => evaluateCondition(c, ctx(over));
const is = (c: Condizione, over: Partial<ContestoCondizione> = {}) => run(c, over).vero;
const paths = (c: unknown, o = {}) => validateCondition(c, o).map((i) => i.path.join('.'));

describe('condition language: schema', () => {
  it('accepts the documented shapes', () => {
    const c: Condizione = { tutti: [
      { campo: 'cliente.pep', op: 'eq', valore: true },
      { almeno_uno: [{ campo: 'geografia.paesi', op: 'intersects', valore: { lista: 'alto' } }, { non: { campo: 'cliente.eta_anni', op: 'between', valore: [18, 80] } }] },
      { aggregato: { fn: 'ratio_history', finestra_giorni: 30, storico_giorni: 365, segno: 'uscita', paesi_controparte: ['IR'] }, op: 'gt', valore: 3 },
      { campo: 'cliente.attivita', op: 'not_exists' },
    ] };
    assert.deepEqual(validateCondition(c), []);
    assert.deepEqual(conditionSchema.parse(c), c);
  });

  it('names the exact path of each error', () => {
    assert.deepEqual(paths({ tutti: [{ campo: 'a', op: 'eq', valore: 1 }, { campo: 'b', op: 'eq', valore: 2 }, { campo: 'x', op: 'like', valore: 'a' }] }), ['tutti.2.op']);
    assert.deepEqual(paths({ tutti: [] }), ['tutti']);
    assert.deepEqual(paths({ non: { campo: 'x', op: 'between', valore: [5, 1] } }), ['non.valore']);
    assert.deepEqual(paths({ campo: 'x', op: 'between', valore: 3 }), ['valore']);
    assert.deepEqual(paths({ campo: 'x', op: 'in', valore: 'IT' }), ['valore']);
    assert.deepEqual(paths({ campo: 'x', op: 'in', valore: [] }), ['valore']);
    assert.deepEqual(paths({ campo: 'x', op: 'in', valore: ['IT', { a: 1 }] }), ['valore.1']);
    assert.deepEqual(paths({ campo: 'x', op: 'exists', valore: 1 }), ['valore']);
    assert.deepEqual(paths({ campo: 'x', op: 'eq' }), ['valore']);
    assert.deepEqual(paths({ campo: 'x', op: 'eq', valore: null }), ['valore'], 'null is tested with exists/not_exists');
    assert.deepEqual(paths({ campo: 'x', op: 'gt', valore: 'tanto' }), ['valore']);
    assert.deepEqual(paths({ campo: 'x', op: 'gt', valore: '2026-01-01' }), [], 'an ISO day orders');
    assert.deepEqual(paths({ campo: 'x', op: 'eq', valore: 1, extra: true }), ['extra']);
    assert.deepEqual(paths({ campo: '__proto__.x', op: 'exists' }), ['campo']);
    assert.deepEqual(paths({ campo: 'a..b', op: 'exists' }), ['campo']);
    assert.deepEqual(paths({ tutti: [{ foo: 1 }] }), ['tutti.0']);
    assert.deepEqual(paths('cliente.pep = true'), ['']);
    assert.deepEqual(paths({ tutti: [{ campo: 'a', op: 'exists' }], almeno_uno: [] }), ['']);
  });

  it('checks aggregates: known functions, windows 1..3650, filters, operators for numbers', () => {
    const agg = (a: Record<string, unknown>, op = 'gt', valore: unknown = 1) => paths({ aggregato: a, op, valore });
    assert.deepEqual(agg({ fn: 'median', finestra_giorni: 30 }), ['aggregato.fn']);
    assert.deepEqual(agg({ fn: 'sum', finestra_giorni: 0 }), ['aggregato.finestra_giorni']);
    assert.deepEqual(agg({ fn: 'sum', finestra_giorni: 3651 }), ['aggregato.finestra_giorni']);
    assert.deepEqual(agg({ fn: 'sum', finestra_giorni: 1.5 }), ['aggregato.finestra_giorni']);
    assert.deepEqual(agg({ fn: 'sum', finestra_giorni: 3650 }), []);
    assert.deepEqual(agg({ fn: 'sum', finestra_giorni: 30, segno: 'dare' }), ['aggregato.segno']);
    assert.deepEqual(agg({ fn: 'sum', finestra_giorni: 30, paesi_controparte: ['ITA'] }), ['aggregato.paesi_controparte.0']);
    assert.deepEqual(agg({ fn: 'sum', finestra_giorni: 30, storico_giorni: 365 }), ['aggregato.storico_giorni']);
    assert.deepEqual(agg({ fn: 'ratio_history', finestra_giorni: 90, storico_giorni: 30 }), ['aggregato.storico_giorni']);
    assert.deepEqual(agg({ fn: 'cash_share', finestra_giorni: 30, contanti: true }), ['aggregato.contanti']);
    assert.deepEqual(agg({ fn: 'count', finestra_giorni: 30, finestra: 3 }), ['aggregato.finestra']);
    assert.deepEqual(agg({ fn: 'count', finestra_giorni: 30 }, 'in', ['a']), ['op']);
    assert.deepEqual(agg({ fn: 'count', finestra_giorni: 30 }, 'eq', 'tre'), ['valore']);
    assert.deepEqual(agg({ fn: 'count', finestra_giorni: 30 }, 'between', ['2026-01-01', '2026-02-01']), ['valore']);
  });

  it('limits depth and size', () => {
    let deep: Condizione = { campo: 'x', op: 'exists' };
    for (let i = 0; i < 7; i++) deep = { non: deep };
    assert.deepEqual(validateCondition(deep), [], 'eight levels');
    assert.match(validateCondition({ non: deep })[0]!.message, /annidata/);
    const wide = { almeno_uno: Array.from({ length: MAX_NODES }, () => ({ campo: 'x', op: 'exists' })) };
    assert.deepEqual(paths(wide), [''], '65 nodes');
    assert.match(validateCondition(wide)[0]!.message, /troppo lunga/);
    const huge = { almeno_uno: Array.from({ length: 100_000 }, () => ({ campo: 'x', op: 'exists' })) };
    assert.equal(validateCondition(huge).length, 1, 'stops walking past the limit');
  });

  it('checks fields and lists against the caller\'s catalogues', () => {
    const o = { campi: new Set(['cliente.pep']), liste: new Set(['alto']) };
    assert.deepEqual(paths({ tutti: [{ campo: 'cliente.pep', op: 'eq', valore: true }, { campo: 'cliente.pepp', op: 'eq', valore: true }] }, o), ['tutti.1.campo']);
    assert.deepEqual(paths({ campo: 'cliente.pep', op: 'in', valore: { lista: 'basso' } }, o), ['valore.lista']);
    assert.deepEqual(paths({ aggregato: { fn: 'count', finestra_giorni: 30, paesi_controparte: { lista: 'basso' } }, op: 'gt', valore: 0 }, o), ['aggregato.paesi_controparte.lista']);
    const body = z.object({ condizione: conditionSchema }).safeParse({ condizione: { tutti: [{ campo: 'a', op: 'exists' }, { campo: 'b', op: 'exists' }, { campo: 'c', op: 'like' }] } });
    assert.deepEqual(body.error!.issues.map((i) => i.path.join('.')), ['condizione.tutti.2.op'], 'nested in a body, the path as a route answers it');
    assert.equal(z.object({ condizione: conditionSchema }).safeParse({}).success, false, 'a missing condition');
    const r = conditionSchemaWith(o).safeParse({ campo: 'cliente.x', op: 'exists' });
    assert.equal(r.success, false);
    assert.deepEqual(r.error!.issues.map((i) => [i.path.join('.'), i.message]), [['campo', 'Campo sconosciuto: cliente.x']]);
  });
});

describe('condition language: evaluation', () => {
  it('eq / ne: strings case-insensitive, no type coercion, booleans', () => {
    assert.equal(is({ campo: 'geografia.paese_residenza', op: 'eq', valore: 'IT' }), true);
    assert.equal(is({ campo: 'geografia.paese_residenza', op: 'ne', valore: 'IT' }), false);
    assert.equal(is({ campo: 'cliente.pep', op: 'eq', valore: true }), true);
    assert.equal(is({ campo: 'cliente.eta_anni', op: 'eq', valore: '45' }), false, 'the number is not the text');
    assert.equal(is({ campo: 'cliente.eta_anni', op: 'ne', valore: 44 }), true);
    assert.equal(is({ campo: 'geografia.paesi', op: 'eq', valore: 'IT' }), false, 'an array is not a scalar: use intersects');
  });

  it('gt / gte / lt / lte / between on numbers and ISO days', () => {
    const e = (op: 'gt' | 'gte' | 'lt' | 'lte', v: number) => is({ campo: 'cliente.eta_anni', op, valore: v });
    assert.deepEqual([e('gt', 45), e('gte', 45), e('lt', 45), e('lte', 45), e('gt', 44), e('lt', 46)], [false, true, false, true, true, true]);
    assert.equal(is({ campo: 'cliente.eta_anni', op: 'between', valore: [45, 50] }), true, 'inclusive');
    assert.equal(is({ campo: 'cliente.eta_anni', op: 'between', valore: [46, 50] }), false);
    assert.equal(is({ campo: 'cliente.nascita', op: 'lt', valore: '1990-01-01' }), true);
    assert.equal(is({ campo: 'cliente.nascita', op: 'between', valore: ['1981-05-02', '1981-05-02'] }), true);
    assert.equal(is({ campo: 'cliente.tipo_soggetto', op: 'gt', valore: 'a' }), false, 'plain text does not order');
  });

  it('in / not_in / intersects with literal arrays and named lists', () => {
    assert.equal(is({ campo: 'geografia.paese_residenza', op: 'in', valore: ['IT', 'FR'] }), true);
    assert.equal(is({ campo: 'geografia.paese_residenza', op: 'in', valore: { lista: 'ue' } }), true);
    assert.equal(is({ campo: 'geografia.paese_residenza', op: 'not_in', valore: { lista: 'alto' } }), true);
    assert.equal(is({ campo: 'geografia.paese_residenza', op: 'not_in', valore: { lista: 'ue' } }), false);
    assert.equal(is({ campo: 'geografia.paesi', op: 'intersects', valore: { lista: 'alto' } }), true, "'ir' matches the list's IR");
    assert.equal(is({ campo: 'geografia.paesi', op: 'intersects', valore: ['DE', 'FR'] }), false);
    assert.equal(is({ campo: 'geografia.paese_residenza', op: 'intersects', valore: ['IT'] }), true, 'a scalar reads as an array of one');
    assert.equal(is({ campo: 'geografia.paesi_controparti', op: 'intersects', valore: { lista: 'alto' } }), false);
    assert.throws(() => run({ campo: 'geografia.paesi', op: 'intersects', valore: { lista: 'ignota' } }),
      (e: unknown) => e instanceof ConditionEvaluationError && e.codice === 'lista_sconosciuta');
  });

  it('missing and null values: every comparison is false, exists/not_exists test presence, non negates', () => {
    for (const op of ['eq', 'ne', 'gt', 'lt'] as const) assert.equal(is({ campo: 'cliente.nessuno', op, valore: 1 }), false, op);
    assert.equal(is({ campo: 'cliente.attivita', op: 'ne', valore: 'x' }), false, 'null');
    assert.equal(is({ campo: 'cliente.attivita', op: 'not_in', valore: ['x'] }), false);
    assert.equal(is({ campo: 'cliente.attivita', op: 'between', valore: [1, 2] }), false);
    assert.equal(is({ campo: 'a.b.c.d', op: 'eq', valore: 1 }), false);
    assert.equal(is({ campo: 'cliente.attivita', op: 'not_exists' }), true, 'null');
    assert.equal(is({ campo: 'cliente.settore', op: 'not_exists' }), true, "''");
    assert.equal(is({ campo: 'geografia.paesi_controparti', op: 'not_exists' }), true, '[]');
    assert.equal(is({ campo: 'cliente.pep', op: 'exists' }), true);
    assert.equal(is({ campo: 'cliente.eta_anni', op: 'exists' }), true);
    assert.equal(is({ non: { campo: 'cliente.nessuno', op: 'eq', valore: 1 } }), true);
    assert.equal(is({ campo: 'cliente.toString', op: 'exists' }), false, 'own properties only');
    assert.equal(is({ campo: 'cliente.eta_anni.constructor', op: 'exists' }), false);
    assert.deepEqual(run({ campo: 'cliente.nessuno', op: 'exists' }).letti, [{ path: 'cliente.nessuno', valore: null }]);
  });

  it('aggregates by canonical key; absent or null is missing; ratio_declared from the sum and the declared volume', () => {
    const a: Aggregato = { fn: 'sum', finestra_giorni: 90, contanti: true, segno: 'entrata' };
    const aggregati = { [aggregateKey(a)]: 12_000, 'cash_share:365': null, 'sum:180': 60_000 };
    assert.equal(is({ aggregato: a, op: 'gte', valore: 10_000 }, { aggregati }), true);
    assert.equal(is({ aggregato: { segno: 'entrata', fn: 'sum', contanti: true, finestra_giorni: 90 }, op: 'between', valore: [12_000, 12_000] }, { aggregati }), true);
    assert.equal(is({ aggregato: { fn: 'cash_share', finestra_giorni: 365 }, op: 'lt', valore: 1 }, { aggregati }), false, 'null');
    assert.equal(is({ aggregato: { fn: 'cash_share', finestra_giorni: 365 }, op: 'not_exists' }, { aggregati }), true);
    assert.equal(is({ aggregato: { fn: 'count', finestra_giorni: 7 }, op: 'lt', valore: 1 }, { aggregati }), false, 'not loaded');
    const declared = run({ aggregato: { fn: 'ratio_declared', finestra_giorni: 180 }, op: 'gt', valore: 1.2 }, { aggregati });
    assert.equal(declared.vero, true, '60,000 in 180 days is 121,667 a year against 100,000 declared');
    assert.deepEqual(declared.letti.map((l) => l.path), ['aggregato:sum:180', 'dichiarato.volume_annuo_eur', 'aggregato:ratio_declared:180']);
    assert.ok(Math.abs((declared.letti[2]!.valore as number) - 60_000 * 365 / 180 / 100_000) < 1e-12);
    const noDeclared = { ...dati, dichiarato: { volume_annuo_eur: 0 } };
    assert.equal(is({ aggregato: { fn: 'ratio_declared', finestra_giorni: 180 }, op: 'gt', valore: 0 }, { aggregati, dati: noDeclared }), false);
    assert.equal(is({ aggregato: { fn: 'ratio_declared', finestra_giorni: 180 }, op: 'gt', valore: 0 },
      { aggregati, dati: { altro: { volume: 10_000 } }, campoDichiarato: 'altro.volume' }), true);
  });

  it('AND and OR are lazy: the reads and the cost stop at the first decisive child', () => {
    const expensive: Condizione = { campo: 'geografia.paesi', op: 'intersects', valore: { lista: 'alto' } };
    const andFalse = run({ tutti: [{ campo: 'cliente.pep', op: 'eq', valore: false }, expensive] });
    assert.equal(andFalse.vero, false);
    assert.deepEqual(andFalse.letti.map((l) => l.path), ['cliente.pep']);
    const orTrue = run({ almeno_uno: [{ campo: 'cliente.pep', op: 'eq', valore: true }, expensive] });
    assert.deepEqual(orTrue.letti.map((l) => l.path), ['cliente.pep']);
    const full = run({ almeno_uno: [{ campo: 'cliente.pep', op: 'eq', valore: false }, expensive] });
    assert.deepEqual(full.letti.map((l) => l.path), ['cliente.pep', 'geografia.paesi']);
    assert.ok(full.costo > orTrue.costo);
    assert.equal(orTrue.costo, 1 + 1 + 2, 'the group, the comparison, two path segments');
  });

  it('throws a typed error when the cost exceeds the budget', () => {
    const many = { geografia: { paesi: Array.from({ length: 50_000 }, (_, i) => `X${i}`) } };
    assert.throws(() => run({ campo: 'geografia.paesi', op: 'intersects', valore: ['IT'] }, { dati: many }),
      (e: unknown) => e instanceof ConditionBudgetError && e.codice === 'budget_superato' && e.budget === 10_000);
    assert.throws(() => run({ tutti: [{ campo: 'cliente.pep', op: 'exists' }, { campo: 'cliente.pep', op: 'exists' }] }, { budget: 5 }), ConditionBudgetError);
    assert.equal(run({ campo: 'cliente.pep', op: 'exists' }, { budget: 3 }).costo, 3);
    assert.throws(() => run({ campo: 'x', op: 'like' } as unknown as Condizione), ConditionEvaluationError);
  });
});

describe('condition language: aggregates and descriptions', () => {
  it('aggregateKey is canonical: key order, country order and case, default history', () => {
    const k1 = aggregateKey({ fn: 'count', finestra_giorni: 30, segno: 'uscita', paesi_controparte: ['kp', 'IR', 'KP'] });
    const k2 = aggregateKey({ paesi_controparte: ['IR', 'KP'], segno: 'uscita', finestra_giorni: 30, fn: 'count' });
    assert.equal(k1, k2);
    assert.equal(k1, 'count:30:segno=uscita:paesi=IR,KP');
    assert.equal(aggregateKey({ fn: 'ratio_history', finestra_giorni: 30 }), aggregateKey({ fn: 'ratio_history', finestra_giorni: 30, storico_giorni: 365 }));
    assert.notEqual(aggregateKey({ fn: 'sum', finestra_giorni: 30, contanti: false }), aggregateKey({ fn: 'sum', finestra_giorni: 30 }));
    assert.equal(aggregateKey({ fn: 'sum', finestra_giorni: 30, paesi_controparte: { lista: 'alto' } }), 'sum:30:paesi=@alto');
  });

  it('requiredAggregates: every aggregate of one or many conditions once, ratio_declared as its sum', () => {
    const rules: Condizione[] = [
      { tutti: [{ campo: 'cliente.pep', op: 'eq', valore: true }, { aggregato: { fn: 'cash_share', finestra_giorni: 365 }, op: 'gt', valore: 0.3 }] },
      { non: { almeno_uno: [{ aggregato: { finestra_giorni: 365, fn: 'cash_share' }, op: 'gt', valore: 0.5 }, { aggregato: { fn: 'ratio_declared', finestra_giorni: 365 }, op: 'gt', valore: 2 }] } },
      { aggregato: { fn: 'sum', finestra_giorni: 365 }, op: 'gt', valore: 1 },
    ];
    assert.deepEqual(requiredAggregates(rules).map(aggregateKey), ['cash_share:365', 'sum:365']);
    assert.deepEqual(requiredAggregates({ campo: 'x', op: 'exists' }), []);
  });

  it('describes a condition in Italian, with the caller\'s labels', () => {
    const c: Condizione = { tutti: [{ campo: 'cliente.pep', op: 'eq', valore: true }, { aggregato: { fn: 'cash_share', finestra_giorni: 365 }, op: 'gt', valore: 0.3 }] };
    assert.equal(describeCondition(c), 'Cliente.pep: sì e la quota di contanti negli ultimi 365 giorni supera il 30%');
    assert.equal(describeCondition(c, { etichette: { 'cliente.pep': 'il cliente è PEP' } }), 'Il cliente è PEP: sì e la quota di contanti negli ultimi 365 giorni supera il 30%');
    assert.equal(describeCondition({ almeno_uno: [
      { campo: 'geografia.paesi', op: 'intersects', valore: { lista: 'alto' } },
      { non: { tutti: [{ campo: 'cliente.eta_anni', op: 'between', valore: [18, 25] }, { campo: 'cliente.attivita', op: 'exists' }] } },
    ] }, { liste: { alto: 'Paesi ad alto rischio' }, etichette: { 'geografia.paesi': 'i paesi del cliente' } }),
    'I paesi del cliente comprende almeno un elemento della lista «Paesi ad alto rischio» oppure non è vero che (cliente.eta_anni è compreso tra 18 e 25 e cliente.attivita è indicato)');
    assert.equal(describeCondition({ aggregato: { fn: 'sum', finestra_giorni: 90, segno: 'entrata', contanti: true, paesi_controparte: ['ir'] }, op: 'gte', valore: 15_000 }),
      'Il totale dei movimenti in entrata in contanti con controparti in IR negli ultimi 90 giorni è almeno 15.000 €');
    assert.equal(describeCondition({ aggregato: { fn: 'ratio_history', finestra_giorni: 30 }, op: 'gt', valore: 3 }),
      'Il totale dei movimenti negli ultimi 30 giorni rispetto alla media dello stesso periodo nei 365 giorni precedenti (volte) supera 3');
    assert.equal(describeCondition({ campo: 'geografia.paese_residenza', op: 'not_in', valore: ['IT', 'SM'] }), 'Geografia.paese_residenza non è tra «IT», «SM»');
    assert.equal(describeCondition({ aggregato: { fn: 'cash_share', finestra_giorni: 1 }, op: 'gte', valore: 0.8 }), "La quota di contanti nell'ultimo giorno è almeno l'80%");
  });
});
