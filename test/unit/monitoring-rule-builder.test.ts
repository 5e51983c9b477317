import assert from 'node:assert/strict';
import { CAMPI_MONITORAGGIO, ETICHETTE_CAMPI, validateMonitoringCondition, describeMonitoringCondition } from '../../src/domains/monitoring';
import { buildCondition, conditionToRows, emptyRow, parseNumber, placeIssues, readBuilder, type BuilderState } from '../../src/domains/monitoring/rules/rules.builder';
import { STARTERS } from '../../src/domains/monitoring/rules/rules.starters';
import { subIndice, unknownIndicatori } from '../../src/domains/monitoring';
import type { Condizione } from '../../src/kit/conditions';

const state = (righe: BuilderState['righe'], combinatore: BuilderState['combinatore'] = 'tutti'): BuilderState => ({ modo: 'costruttore', combinatore, righe, json: '' });

describe('monitoring rule builder (form rows <-> condition)', () => {
  it('reads numbers as Italians and JSON write them', () => {
    assert.equal(parseNumber('10.000'), 10_000);
    assert.equal(parseNumber('10.000,50'), 10_000.5);
    assert.equal(parseNumber('0,3'), 0.3);
    assert.equal(parseNumber('0.3'), 0.3);
    assert.equal(parseNumber('9999.99'), 9_999.99);
    assert.equal(parseNumber('€ 1.500'), 1_500);
    for (const bad of ['', 'tanti', '1,2,3', '1e9', '--1']) assert.equal(parseNumber(bad), undefined, bad);
  });

  it('builds one group from the rows, with typed values, negation, lists and the aggregate\'s filters', () => {
    const built = buildCondition(state([
      { ...emptyRow('campo'), campo: 'evento.contanti', op: 'eq', valore: 'true' },
      { ...emptyRow('campo'), campo: 'evento.importo_eur', op: 'between', valore: '8.000', valore2: '9.999,99' },
      { ...emptyRow('campo'), campo: 'evento.controparte_paese', op: 'in', valore: 'lista:paesi_alto_rischio', non: true },
      { ...emptyRow('aggregato'), fn: 'sum', finestra: '30', segno: 'entrata', contanti: 'true', paesi: 'ir, kp', op: 'gte', valore: '15.000' },
      { ...emptyRow('aggregato'), fn: 'ratio_history', finestra: '30', storico: '365', op: 'exists' },
    ], 'almeno_uno'));
    assert.deepEqual(built.errors, {});
    assert.deepEqual(built.condizione, { almeno_uno: [
      { campo: 'evento.contanti', op: 'eq', valore: true },
      { campo: 'evento.importo_eur', op: 'between', valore: [8_000, 9_999.99] },
      { non: { campo: 'evento.controparte_paese', op: 'in', valore: { lista: 'paesi_alto_rischio' } } },
      { aggregato: { fn: 'sum', finestra_giorni: 30, segno: 'entrata', contanti: true, paesi_controparte: ['IR', 'KP'] }, op: 'gte', valore: 15_000 },
      { aggregato: { fn: 'ratio_history', finestra_giorni: 30, storico_giorni: 365 }, op: 'exists' },
    ] });
    assert.deepEqual(validateMonitoringCondition(built.condizione), []);
  });

  it('puts each problem next to its row\'s control, with the node\'s path', () => {
    const s = state([
      { ...emptyRow('campo'), campo: 'evento.importo_eur', op: 'gte', valore: 'molti' },
      { ...emptyRow('aggregato'), fn: 'sum', finestra: '0', op: 'gt', valore: '1' },
      { ...emptyRow('campo'), campo: 'cliente.segno_zodiacale', op: 'eq', valore: 'x', non: true },
      { ...emptyRow('aggregato'), fn: 'cash_share', finestra: '30', contanti: 'true', op: 'in', valore: '1' },
    ]);
    const built = buildCondition(s);
    assert.deepEqual(Object.keys(built.errors), ['r0_valore']);
    const placed = placeIssues(s, validateMonitoringCondition(built.condizione));
    assert.deepEqual(Object.keys(placed.rows).sort(), ['r1_finestra', 'r2_campo', 'r3_contanti', 'r3_op']);
    assert.match(placed.rows.r2_campo!, /Campo sconosciuto.*\(condizione\.tutti\.2\.non\.campo\)/);
    assert.match(placed.rows.r3_op!, /\(condizione\.tutti\.3\.op\)/);
    const empty = state([]);
    assert.deepEqual(placeIssues(empty, validateMonitoringCondition(buildCondition(empty).condizione)).general, ['condizione.tutti: Indica almeno una condizione']);
  });

  it('reads a posted form, rows and mode, and a JSON condition with its parse error', () => {
    const s = readBuilder({ modo: 'costruttore', combinatore: 'almeno_uno', righe: '2', r0_tipo: 'campo', r0_campo: 'cliente.pep', r0_op: 'eq', r0_valore: 'true', r1_tipo: 'aggregato', r1_non: '1', r1_fn: 'count', r1_finestra: '7', r1_op: 'gt', r1_valore: '3' });
    assert.deepEqual(buildCondition(s).condizione, { almeno_uno: [{ campo: 'cliente.pep', op: 'eq', valore: true }, { non: { aggregato: { fn: 'count', finestra_giorni: 7 }, op: 'gt', valore: 3 } }] });
    assert.equal(readBuilder({ righe: '500' }).righe.length, 32, 'at most 32 rows');
    const bad = buildCondition({ modo: 'json', combinatore: 'tutti', righe: [], json: '{ "tutti": [' });
    assert.match(bad.jsonError!, /^JSON non valido/);
  });

  it('shows a stored condition as rows and back unchanged; nested groups and unknown keys stay JSON', () => {
    const c = { tutti: [
      { campo: 'evento.segno', op: 'eq', valore: 'entrata' },
      { non: { aggregato: { fn: 'distinct_countries', finestra_giorni: 90, paesi_controparte: { lista: 'paesi_gafi_grey' } }, op: 'lte', valore: 2 } },
      { campo: 'cliente.classe_rischio', op: 'not_in', valore: ['basso', 'medio'] },
    ] };
    const rows = conditionToRows(c)!;
    assert.equal(rows.righe.length, 3);
    assert.deepEqual(buildCondition({ modo: 'costruttore', json: '', ...rows }).condizione, c);
    assert.deepEqual(buildCondition({ modo: 'costruttore', json: '', ...conditionToRows({ campo: 'cliente.pep', op: 'eq', valore: true })! }).condizione,
      { tutti: [{ campo: 'cliente.pep', op: 'eq', valore: true }] }, 'a single comparison becomes a group of one');
    assert.equal(conditionToRows({ tutti: [{ almeno_uno: [{ campo: 'cliente.pep', op: 'eq', valore: true }] }] }), undefined);
    assert.equal(conditionToRows({ tutti: [{ aggregato: { fn: 'sum', finestra_giorni: 30, importo_min: 100 }, op: 'gt', valore: 1 }] }), undefined);
  });

  it('starts every typology from a condition the language accepts, the builder shows, and the preview says in Italian', () => {
    for (const [tipologia, s] of Object.entries(STARTERS)) {
      assert.deepEqual(validateMonitoringCondition(s.condizione), [], tipologia);
      const rows = conditionToRows(s.condizione);
      assert.ok(rows, `${tipologia} in the builder`);
      assert.deepEqual(buildCondition({ modo: 'costruttore', json: '', ...rows }).condizione, s.condizione, tipologia);
      assert.doesNotMatch(describeMonitoringCondition(s.condizione as Condizione), /evento\.|cliente\.|dichiarato\./, `${tipologia}: every field has its words`);
    }
  });

  it('knows monitoring\'s fields and words for each, and the UIF sub-indices by code', () => {
    for (const g of CAMPI_MONITORAGGIO) for (const c of g.campi) assert.ok(ETICHETTE_CAMPI[c.path], c.path);
    assert.equal(subIndice('9.18')?.indicatore, 9);
    assert.deepEqual(unknownIndicatori(['1.1', '34.4', '35.1', '1.8', 'x']).map((u) => u.codice), ['35.1', '1.8', 'x']);
  });
});
