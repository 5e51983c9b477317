import assert from 'node:assert/strict';
import { csvField, csvLine } from '../../src/lib/csv';
import { parseAmount, parseBool, parseCountry, parseDate, parseTime } from '../../src/domains/imports/import-values';
import { cellText, normaliseHeader } from '../../src/domains/imports/import-reader';

const value = <T>(c: { ok: true; value: T } | { ok: false; messaggio: string }) => (c.ok ? c.value : `ERR ${c.messaggio}`);

describe('import cell checks', () => {
  it('reads dates as Italian and ISO writing has them, checked on the calendar', () => {
    assert.equal(value(parseDate('01/02/2024')), '2024-02-01');
    assert.equal(value(parseDate('1.2.2024')), '2024-02-01');
    assert.equal(value(parseDate('2024-02-29')), '2024-02-29');
    assert.match(String(value(parseDate('29/02/2023'))), /^ERR Data inesistente/);
    assert.match(String(value(parseDate('2024/02/01'))), /^ERR Data non valida/);
    assert.match(String(value(parseDate('31-04-2024'))), /^ERR Data inesistente/);
  });

  it('reads amounts with either decimal separator and thousands, positive, two decimals at most', () => {
    assert.equal(value(parseAmount('1.234,56')), '1234.56');
    assert.equal(value(parseAmount('1,234.56')), '1234.56');
    assert.equal(value(parseAmount('1234,5')), '1234.50');
    assert.equal(value(parseAmount('1234.56')), '1234.56');
    assert.equal(value(parseAmount('€ 10')), '10.00');
    assert.equal(value(parseAmount('1.234.567')), '1234567.00');
    for (const bad of ['-5', '0', '0,00', '12,345,6', '1.234.56,7', 'dieci', '1,2,3', '1.234,567']) {
      assert.match(String(value(parseAmount(bad))), /^ERR /, bad);
    }
  });

  it('reads a zero amount only where zero is allowed (a declared volume)', () => {
    assert.equal(value(parseAmount('0', { zero: true })), '0.00');
    assert.equal(value(parseAmount('2.500,00', { zero: true })), '2500.00');
    assert.match(String(value(parseAmount('-1', { zero: true }))), /^ERR /);
  });

  it('reads a time of day as HH:MM or HH:MM:SS (24 hours), as HH:MM:SS', () => {
    assert.equal(value(parseTime('9:05')), '09:05:00');
    assert.equal(value(parseTime('14:05')), '14:05:00');
    assert.equal(value(parseTime('23:59:59')), '23:59:59');
    assert.equal(value(parseTime('00:00')), '00:00:00');
    for (const bad of ['24:00', '12:60', '12:30:60', '1205', '12.05', '12:5', 'mezzogiorno', '12:05 PM']) {
      assert.match(String(value(parseTime(bad))), /^ERR Ora non valida/, bad);
    }
  });

  it('reads XLSX cells as a CSV holds them: a date as YYYY-MM-DD, a time-of-day cell as HH:MM:SS', () => {
    assert.equal(cellText(new Date(Date.UTC(2026, 0, 2))), '2026-01-02');
    assert.equal(cellText(new Date(Date.UTC(1899, 11, 30, 14, 5, 0))), '14:05:00');
    // Excel keeps a time as a fraction of a day: 14:05 may come back a millisecond short.
    assert.equal(cellText(new Date(Date.UTC(1899, 11, 30, 14, 5, 0) - 1)), '14:05:00');
    assert.equal(cellText(new Date(Date.UTC(1899, 11, 30, 0, 0, 0))), '00:00:00');
    assert.equal(cellText({ result: new Date(Date.UTC(1899, 11, 30, 9, 30, 15)) }), '09:30:15');
  });

  it('checks countries against ISO 3166 and flags in Italian or English', () => {
    assert.equal(value(parseCountry(' it ')), 'IT');
    assert.match(String(value(parseCountry('XX'))), /^ERR Paese non valido/);
    assert.equal(value(parseBool('Sì')), true);
    assert.equal(value(parseBool('no')), false);
    assert.match(String(value(parseBool('forse'))), /^ERR /);
  });

  it('compares headers loosely', () => {
    assert.equal(normaliseHeader(' Data Operazione '), 'data_operazione');
    assert.equal(normaliseHeader('Nazionalità'), 'nazionalita');
    assert.equal(normaliseHeader('CODICE-FISCALE'), 'codice_fiscale');
  });
});

describe('CSV writing (RFC 4180)', () => {
  it('quotes what needs quoting and doubles quotes; CRLF line ends', () => {
    assert.equal(csvLine(['a', 'b,c', 'd"e', 'f\ng', null, 3, true]), 'a,"b,c","d""e","f\ng",,3,true\r\n');
    assert.equal(csvField(' spazio'), '" spazio"');
    assert.equal(csvField(new Date('2026-01-02T03:04:05Z')), '2026-01-02T03:04:05.000Z');
    assert.equal(csvField({ a: 1 }), '"{""a"":1}"');
  });

  it('neutralises formulas, keeps negative numbers', () => {
    assert.equal(csvField('=SUM(A1:A2)'), "'=SUM(A1:A2)");
    assert.equal(csvField('@cmd'), "'@cmd");
    assert.equal(csvField('-12.5'), '-12.5');
    assert.equal(csvField(-12.5), '-12.5');
  });
});
