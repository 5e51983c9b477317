import assert from 'node:assert/strict';
import {
  aggregateKey, compileCondition, describeCondition, evaluateCondition, FILTRI_AGGREGATO_BASE, FUNZIONI_AGGREGATO_BASE, ibanCountry,
  isRoundAmount, loadedAggregate, requiredAggregates, validateCondition, type Aggregato, type Condizione, type FonteAggregati,
} from '../../src/kit/conditions';
import type { ContestoCondizione } from '../../src/kit/conditions/condition.evaluate';
import { validateRuleCondition } from '../../src/domains/risk';
import { SQL_AGGREGATE_CATALOGUE } from '../../src/domains/movements';
import { aggregatesStatement } from '../../src/domains/movements/movements.aggregates';

/**
 * The condition language's monitoring extension (docs/conditions.md, docs/monitoring.md): the new
 * functions and filters, their validation and catalogues (risk refuses what its SQL loader does not
 * compute), canonical keys that leave the first language's keys as they were, on-demand aggregates
 * (ctx.fonte) and the monthly declared volume.
 */

const OGGI = '2026-11-23';
const paths = (c: unknown, o = {}) => validateCondition(c, o).map((i) => `${i.path.join('.')}: ${i.message}`);
const agg = (a: Record<string, unknown>, o = {}) => paths({ aggregato: a, op: 'gt', valore: 1 }, o);

describe('condition language for monitoring: validation', () => {
  it('accepts the new functions and filters', () => {
    const ok: Aggregato[] = [
      { fn: 'avg', finestra_giorni: 30, segno: 'entrata', importo_min: 1000, importo_max: 9999.99 },
      { fn: 'max', finestra_giorni: 7, contanti: true, tondi: true },
      { fn: 'distinct_new_counterparties', finestra_giorni: 30, storico_giorni: 180, segno: 'uscita', canali: ['bonifico', 'SEPA'] },
      { fn: 'days_since_previous', finestra_giorni: 730, livello: 'rapporto' },
      { fn: 'passthrough_share', finestra_giorni: 30, entro_giorni: 3, causali: { lista: 'causali_giroconto' } },
      { fn: 'peer_ratio', finestra_giorni: 30, misura: 'numero', paesi_controparte: { lista: 'alto' } },
      { fn: 'ratio_history', finestra_giorni: 7, misura: 'numero', causali: ['stipendio'] },
      { fn: 'ratio_declared', finestra_giorni: 30, segno: 'entrata', livello: 'cliente' },
    ];
    for (const a of ok) assert.deepEqual(agg(a as unknown as Record<string, unknown>), [], JSON.stringify(a));
  });

  it('refuses each malformed filter at its path', () => {
    assert.deepEqual(agg({ fn: 'avg', finestra_giorni: 30, importo_min: -1 }), ['aggregato.importo_min: Un importo in euro, zero o più']);
    assert.deepEqual(agg({ fn: 'avg', finestra_giorni: 30, importo_min: 10, importo_max: 5 }), ['aggregato.importo_max: L\'importo massimo è minore del minimo']);
    assert.deepEqual(agg({ fn: 'sum', finestra_giorni: 30, tondi: 'si' }), ['aggregato.tondi: Importi tondi: vero o falso']);
    assert.deepEqual(agg({ fn: 'sum', finestra_giorni: 30, livello: 'conto' }), ['aggregato.livello: Livello: cliente o rapporto']);
    assert.deepEqual(agg({ fn: 'sum', finestra_giorni: 30, causali: [] }).map((x) => x.split(':')[0]), ['aggregato.causali']);
    assert.deepEqual(agg({ fn: 'sum', finestra_giorni: 30, canali: ['ok', 3] }).map((x) => x.split(':')[0]), ['aggregato.canali.1']);
    assert.deepEqual(agg({ fn: 'sum', finestra_giorni: 30, entro_giorni: 2 }), ['aggregato.entro_giorni: Solo per passthrough_share']);
    assert.deepEqual(agg({ fn: 'passthrough_share', finestra_giorni: 30, entro_giorni: 0 }).map((x) => x.split(':')[0]), ['aggregato.entro_giorni']);
    assert.deepEqual(agg({ fn: 'passthrough_share', finestra_giorni: 30, segno: 'entrata' }).map((x) => x.split(':')[0]), ['aggregato.segno']);
    assert.deepEqual(agg({ fn: 'sum', finestra_giorni: 30, misura: 'numero' }), ['aggregato.misura: Solo per ratio_history, peer_ratio e ratio_last_year']);
    assert.deepEqual(agg({ fn: 'peer_ratio', finestra_giorni: 30, misura: 'pezzi' }), ['aggregato.misura: Misura: importo o numero']);
    assert.deepEqual(agg({ fn: 'avg', finestra_giorni: 30, storico_giorni: 90 }), ['aggregato.storico_giorni: Solo per ratio_history, distinct_new_counterparties e ratio_last_year']);
    assert.deepEqual(agg({ fn: 'distinct_new_counterparties', finestra_giorni: 90, storico_giorni: 30 }), [], 'a shorter history is allowed for new counterparties');
  });

  it('takes a catalogue of functions and filters: the first language\'s only for risk (its SQL loader)', () => {
    const base = { funzioni: new Set<string>(FUNZIONI_AGGREGATO_BASE), filtri: new Set<string>(FILTRI_AGGREGATO_BASE) };
    assert.deepEqual(agg({ fn: 'sum', finestra_giorni: 30, segno: 'entrata', contanti: true, paesi_controparte: ['IR'] }, base), []);
    assert.deepEqual(agg({ fn: 'avg', finestra_giorni: 30 }, base).map((x) => x.split(':')[0]), ['aggregato.fn']);
    assert.match(agg({ fn: 'peer_ratio', finestra_giorni: 30 }, base)[0]!, /Funzione non disponibile qui: ammesse count, sum/);
    assert.deepEqual(agg({ fn: 'sum', finestra_giorni: 30, importo_min: 5 }, base).map((x) => x.split(':')[0]), ['aggregato.importo_min']);
    assert.deepEqual(agg({ fn: 'sum', finestra_giorni: 30, livello: 'rapporto' }, base).map((x) => x.split(':')[0]), ['aggregato.livello']);
    assert.deepEqual(SQL_AGGREGATE_CATALOGUE.funzioni, base.funzioni);
    assert.deepEqual(SQL_AGGREGATE_CATALOGUE.filtri, base.filtri);
  });

  it('a risk rule using a monitoring aggregate or filter is refused with the path of the bad node', () => {
    const c = (a: Record<string, unknown>) => ({ tutti: [{ campo: 'cliente.pep', op: 'eq', valore: true }, { aggregato: a, op: 'gt', valore: 1 }] });
    assert.deepEqual(validateRuleCondition(c({ fn: 'sum', finestra_giorni: 90, contanti: true })), []);
    assert.deepEqual(validateRuleCondition(c({ fn: 'passthrough_share', finestra_giorni: 30 })).map((i) => i.path.join('.')), ['tutti.1.aggregato.fn']);
    assert.deepEqual(validateRuleCondition(c({ fn: 'count', finestra_giorni: 30, causali: ['x'] })).map((i) => i.path.join('.')), ['tutti.1.aggregato.causali']);
    assert.deepEqual(validateRuleCondition(c({ fn: 'ratio_history', finestra_giorni: 30, misura: 'numero' })).map((i) => i.path.join('.')), ['tutti.1.aggregato.misura']);
  });

  it('the SQL loader refuses what it does not compute instead of computing something else', () => {
    assert.throws(() => aggregatesStatement('T', ['ANA-1'], [{ fn: 'avg', finestra_giorni: 30 }], OGGI), /monitoring engine/);
    assert.throws(() => aggregatesStatement('T', ['ANA-1'], [{ fn: 'sum', finestra_giorni: 30, tondi: true }], OGGI), /tondi filter/);
    const { sql } = aggregatesStatement('T', ['ANA-1'], [{ fn: 'sum', finestra_giorni: 30, paesi_controparte: ['IR'] }], OGGI);
    assert.match(sql, /upper\(left\(controparte_conto, 2\)\)/, 'a counterparty country filter matches the IBAN\'s country too');
  });
});

describe('condition language for monitoring: keys, helpers, descriptions', () => {
  it('keeps the first language\'s keys and names the new parts canonically', () => {
    assert.equal(aggregateKey({ fn: 'sum', finestra_giorni: 90, segno: 'entrata', contanti: true, paesi_controparte: ['kp', 'IR'] }), 'sum:90:segno=entrata:contanti=true:paesi=IR,KP');
    assert.equal(aggregateKey({ fn: 'ratio_history', finestra_giorni: 30 }), 'ratio_history:30:storico=365');
    assert.equal(aggregateKey({ fn: 'count', finestra_giorni: 30, paesi_controparte: { lista: 'paesi_alto_rischio' } }), 'count:30:paesi=@paesi_alto_rischio');
    assert.equal(aggregateKey({ fn: 'cash_share', finestra_giorni: 365 }), 'cash_share:365');
    assert.equal(aggregateKey({ fn: 'count', finestra_giorni: 14, contanti: true, importo_min: 8000, importo_max: 9999.99, causali: ['versamento', 'Deposito', 'VERSAMENTO'] }),
      'count:14:contanti=true:causali=DEPOSITO,VERSAMENTO:importo_min=8000:importo_max=9999.99');
    assert.equal(aggregateKey({ fn: 'sum', finestra_giorni: 7, canali: ['a,b', 'c:d'] }), 'sum:7:canali=A%2CB,C%3AD', 'separators inside values are escaped');
    assert.equal(aggregateKey({ fn: 'passthrough_share', finestra_giorni: 30 }), aggregateKey({ fn: 'passthrough_share', finestra_giorni: 30, entro_giorni: 2 }));
    assert.equal(aggregateKey({ fn: 'distinct_new_counterparties', finestra_giorni: 30 }), 'distinct_new_counterparties:30:storico=365');
    assert.equal(aggregateKey({ fn: 'sum', finestra_giorni: 30, livello: 'cliente' }), 'sum:30', 'the default level is not in the key');
    assert.equal(aggregateKey({ fn: 'sum', finestra_giorni: 30, livello: 'rapporto', tondi: false }), 'sum:30:tondi=false:livello=rapporto');
    assert.equal(aggregateKey({ fn: 'peer_ratio', finestra_giorni: 30, misura: 'importo' }), 'peer_ratio:30');
    assert.equal(aggregateKey({ fn: 'ratio_history', finestra_giorni: 7, misura: 'numero', storico_giorni: 180 }), 'ratio_history:7:misura=numero:storico=180');
    assert.deepEqual(loadedAggregate({ fn: 'ratio_declared', finestra_giorni: 30, segno: 'entrata', importo_min: 100 }), { fn: 'sum', finestra_giorni: 30, segno: 'entrata', importo_min: 100 });
    assert.deepEqual(requiredAggregates({ aggregato: { fn: 'ratio_declared', finestra_giorni: 30, tondi: true }, op: 'gt', valore: 2 }).map(aggregateKey), ['sum:30:tondi=true']);
  });

  it('reads an IBAN\'s country and round amounts', () => {
    assert.equal(ibanCountry('IT60X0542811101000000123456'), 'IT');
    assert.equal(ibanCountry('ae07 0331 2345 6789 0123 456'), 'AE');
    assert.equal(ibanCountry('IT01'), null, 'too short');
    assert.equal(ibanCountry('1234567890123456'), null);
    assert.equal(ibanCountry(null), null);
    assert.equal(isRoundAmount(500), true);
    assert.equal(isRoundAmount(10_000), true);
    assert.equal(isRoundAmount(2_500), true);
    assert.equal(isRoundAmount(800), false);
    assert.equal(isRoundAmount(1_000.01), false);
    assert.equal(isRoundAmount(0), false);
  });

  it('describes the new aggregates in Italian', () => {
    assert.equal(describeCondition({ aggregato: { fn: 'count', finestra_giorni: 14, contanti: true, importo_min: 8000, importo_max: 9999.99 }, op: 'gte', valore: 3 }),
      'Il numero di movimenti in contanti di importo tra 8000 € e 9999,99 € negli ultimi 14 giorni è almeno 3');
    assert.equal(describeCondition({ aggregato: { fn: 'distinct_new_counterparties', finestra_giorni: 30, segno: 'uscita', storico_giorni: 180 }, op: 'gte', valore: 8 }),
      'Il numero di controparti nuove (mai viste nei 180 giorni precedenti) dei movimenti in uscita negli ultimi 30 giorni è almeno 8');
    assert.equal(describeCondition({ aggregato: { fn: 'passthrough_share', finestra_giorni: 30, entro_giorni: 3 }, op: 'gte', valore: 0.8 }),
      "La quota delle entrate negli ultimi 30 giorni uscita di nuovo entro 3 giorni (movimenti) è almeno l'80%");
    assert.equal(describeCondition({ aggregato: { fn: 'ratio_declared', finestra_giorni: 30, segno: 'entrata' }, op: 'gt', valore: 3 }, { volumeDichiarato: 'mensile' }),
      'Il totale dei movimenti in entrata negli ultimi 30 giorni, riportato a 30 giorni, rispetto al volume mensile dichiarato (volte) supera 3');
    assert.equal(describeCondition({ aggregato: { fn: 'ratio_declared', finestra_giorni: 365 }, op: 'gt', valore: 2 }),
      'Il totale annualizzato dei movimenti negli ultimi 365 giorni rispetto al volume annuo dichiarato (volte) supera 2', 'risk\'s sentence is unchanged');
    assert.equal(describeCondition({ aggregato: { fn: 'sum', finestra_giorni: 30, causali: { lista: 'stip' }, tondi: true, livello: 'rapporto' }, op: 'gt', valore: 1 }, { liste: { stip: 'Stipendi' } }),
      'Il totale dei movimenti con causale nella lista «Stipendi» di importo tondo del rapporto negli ultimi 30 giorni supera 1 €');
  });
});

/** A source that counts what it was asked: the evaluators must ask lazily, with the loaded aggregate and its key. */
class CountingSource implements FonteAggregati {
  asked: string[] = [];
  constructor(private readonly values: Record<string, number | null>) {}
  valore(a: Aggregato, chiave: string) {
    assert.equal(aggregateKey(a), chiave);
    this.asked.push(chiave);
    return this.values[chiave];
  }
}

describe('condition language for monitoring: on-demand aggregates and the monthly declared volume', () => {
  const dati = { evento: { importo_eur: 9_500, contanti: true }, dichiarato: { volume_mensile_eur: 2_000 } };
  const both = (c: Condizione, ctx: ContestoCondizione) => {
    const a = evaluateCondition(c, ctx);
    const b = compileCondition(c).evaluate(ctx);
    assert.deepEqual(b, a, 'compiled = interpreter');
    return a;
  };

  it('asks ctx.fonte only for the aggregates the evaluation reaches, ignoring ctx.aggregati', () => {
    const c: Condizione = { tutti: [
      { campo: 'evento.contanti', op: 'eq', valore: true },
      { almeno_uno: [
        { aggregato: { fn: 'count', finestra_giorni: 14, contanti: true, importo_min: 8000 }, op: 'gte', valore: 3 },
        { aggregato: { fn: 'max', finestra_giorni: 14 }, op: 'gt', valore: 50_000 },
      ] },
    ] };
    for (const run of [evaluateCondition, (x: Condizione, ctx: ContestoCondizione) => compileCondition(x).evaluate(ctx)]) {
      const fonte = new CountingSource({ 'count:14:contanti=true:importo_min=8000': 3, 'max:14': 9_500 });
      const r = run(c, { dati, aggregati: { 'count:14:contanti=true:importo_min=8000': 0 }, fonte, liste: {}, oggi: OGGI });
      assert.equal(r.vero, true);
      assert.deepEqual(fonte.asked, ['count:14:contanti=true:importo_min=8000'], 'the OR stopped at its first true child');
      const quiet = new CountingSource({});
      assert.equal(run(c, { dati: { evento: { contanti: false } }, aggregati: {}, fonte: quiet, liste: {}, oggi: OGGI }).vero, false);
      assert.deepEqual(quiet.asked, [], 'no aggregate computed when the event is not cash');
    }
  });

  it('a non-finite value from the source is missing', () => {
    const fonte = new CountingSource({ 'avg:30': Number.NaN, 'max:30': Number.POSITIVE_INFINITY });
    const r = both({ almeno_uno: [{ aggregato: { fn: 'avg', finestra_giorni: 30 }, op: 'gte', valore: 0 }, { aggregato: { fn: 'max', finestra_giorni: 30 }, op: 'exists' }] },
      { dati, aggregati: {}, fonte, liste: {}, oggi: OGGI });
    assert.equal(r.vero, false);
    assert.deepEqual(r.letti, [{ path: 'aggregato:avg:30', valore: null }, { path: 'aggregato:max:30', valore: null }]);
  });

  it('ratio_declared against the monthly volume: the window\'s sum brought to 30 days', () => {
    const c: Condizione = { aggregato: { fn: 'ratio_declared', finestra_giorni: 60, segno: 'entrata' }, op: 'gt', valore: 2 };
    const fonte = new CountingSource({ 'sum:60:segno=entrata': 9_000 });
    const r = both(c, { dati, aggregati: {}, fonte, liste: {}, oggi: OGGI, campoDichiarato: 'dichiarato.volume_mensile_eur', giorniDichiarato: 30 });
    assert.equal(r.vero, true, '9,000 in 60 days is 4,500 a month against 2,000 declared');
    assert.deepEqual(r.letti, [
      { path: 'aggregato:sum:60:segno=entrata', valore: 9_000 }, { path: 'dichiarato.volume_mensile_eur', valore: 2_000 },
      { path: 'aggregato:ratio_declared:60:segno=entrata', valore: 2.25 },
    ]);
  });
});
