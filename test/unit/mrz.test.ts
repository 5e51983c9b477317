import assert from 'node:assert/strict';
import { checkDigit, normaliseMrz, parseMrz } from '../../src/domains/verifications/documents/mrz';

/**
 * The specimen zones of ICAO Doc 9303 (8th edition): the Utopia passport of part 4 (TD3), the
 * identity card of part 5 (TD1), with its variant of a document number longer than 9 characters,
 * and the TD2 card of part 6. Each corrupted variant changes one character and must fail the
 * check digit that covers it.
 */
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const TD1 = ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];
const TD1_LONG = ['I<UTOD23145890<7349<<<<<<<<<<<', '3407127M9507122UTO<<<<<<<<<<<2', 'STEVENSON<<PETER<JOHN<<<<<<<<<'];
const TD2 = ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'];
const TODAY = new Date('2026-11-23T12:00:00Z');

const replaceAt = (s: string, i: number, c: string) => s.slice(0, i) + c + s.slice(i + 1);
const parse = (lines: string[]) => {
  const r = parseMrz(lines.join('\n'), TODAY);
  assert.ok(r.ok, r.ok ? '' : r.errore);
  return r;
};
const failed = (lines: string[]) => parse(lines).controlli.filter((c) => !c.ok).map((c) => c.campo);

describe('ICAO 9303 machine-readable zone', () => {
  it('computes check digits with weights 7, 3, 1 (Doc 9303 part 3 worked examples)', () => {
    assert.equal(checkDigit('520727'), '3');
    assert.equal(checkDigit('L898902C3'), '6');
    assert.equal(checkDigit('740812'), '2');
    assert.equal(checkDigit('120415'), '9');
    assert.equal(checkDigit('ZE184226B<<<<<'), '1');
    assert.equal(checkDigit('<<<<'), '0', 'the filler counts as zero');
  });

  it('reads the TD3 specimen passport and validates its five check digits, the composite included', () => {
    const r = parse(TD3);
    assert.equal(r.valido, true);
    assert.deepEqual(r.controlli.map((c) => c.campo), ['numero_documento', 'data_nascita', 'data_scadenza', 'dati_facoltativi', 'composito']);
    assert.deepEqual(r.campi, {
      formato: 'TD3', codice_documento: 'P', stato_emittente: 'UTO', numero_documento: 'L898902C3', nazionalita: 'UTO', data_nascita: '1974-08-12',
      sesso: 'F', data_scadenza: '2012-04-15', cognome: 'ERIKSSON', nome: 'ANNA MARIA', dati_facoltativi: 'ZE184226B',
    });
  });

  it('reads the TD1 specimen identity card (three lines of 30) and its composite digit over lines 1 and 2', () => {
    const r = parse(TD1);
    assert.equal(r.valido, true);
    assert.equal(r.campi.formato, 'TD1');
    assert.equal(r.campi.numero_documento, 'D23145890');
    assert.equal(r.campi.cognome, 'ERIKSSON');
    assert.equal(r.campi.nome, 'ANNA MARIA');
    assert.equal(r.campi.data_nascita, '1974-08-12');
    assert.equal(r.campi.data_scadenza, '2012-04-15');
    assert.equal(r.controlli.find((c) => c.campo === 'composito')!.valore, 'D231458907<<<<<<<<<<<<<<<74081221204159<<<<<<<<<<<');
  });

  it('reads a TD1 document number longer than 9 characters (the rest and its check digit in the optional data)', () => {
    const r = parse(TD1_LONG);
    assert.equal(r.valido, true);
    assert.equal(r.campi.numero_documento, 'D23145890734');
    assert.equal(r.controlli[0]!.letto, '9');
    assert.equal(r.campi.data_nascita, '1934-07-12', 'a birth year above the current one belongs to the previous century');
    assert.equal(r.campi.sesso, 'M');
  });

  it('reads the TD2 specimen', () => {
    const r = parse(TD2);
    assert.equal(r.valido, true);
    assert.equal(r.campi.formato, 'TD2');
    assert.equal(r.campi.numero_documento, 'D23145890');
  });

  it('fails the digit of the field changed, and the composite one, on corrupted variants', () => {
    // TD3: a document number letter mistyped, a birth day changed, an expiry year changed, the personal number changed.
    assert.deepEqual(failed([TD3[0]!, replaceAt(TD3[1]!, 2, '7')]), ['numero_documento', 'composito']);
    assert.deepEqual(failed([TD3[0]!, replaceAt(TD3[1]!, 18, '3')]), ['data_nascita', 'composito']);
    assert.deepEqual(failed([TD3[0]!, replaceAt(TD3[1]!, 22, '3')]), ['data_scadenza', 'composito']);
    assert.deepEqual(failed([TD3[0]!, replaceAt(TD3[1]!, 30, 'F')]), ['dati_facoltativi', 'composito']);
    // Only the composite digit itself changed.
    assert.deepEqual(failed([TD3[0]!, replaceAt(TD3[1]!, 43, '5')]), ['composito']);
    // The name is not covered by any digit: a changed name still validates (the record comparison catches it).
    assert.deepEqual(failed([replaceAt(TD3[0]!, 6, 'A'), TD3[1]!]), []);
    // TD1: the optional data of line 1 is covered by the composite digit only.
    assert.deepEqual(failed([replaceAt(TD1[0]!, 20, 'X'), TD1[1]!, TD1[2]!]), ['composito']);
    assert.deepEqual(failed([replaceAt(TD1[0]!, 7, '4'), TD1[1]!, TD1[2]!]), ['numero_documento', 'composito']);
    assert.deepEqual(failed([TD1[0]!, replaceAt(TD1[1]!, 10, '5'), TD1[2]!]), ['data_scadenza', 'composito']);
    assert.deepEqual(failed([TD1[0]!, replaceAt(TD1[1]!, 29, '7'), TD1[2]!]), ['composito']);
    assert.equal(parse([TD1[0]!, replaceAt(TD1[1]!, 29, '7'), TD1[2]!]).valido, false);
  });

  it('takes a zone pasted on one row, with spaces or lower case, and refuses other shapes and characters', () => {
    assert.deepEqual(normaliseMrz(TD1.join('')), TD1);
    assert.equal(parse([TD3.join('').toLowerCase()]).valido, true);
    assert.equal(parse([`${TD3[0]}  `, ` ${TD3[1]}`]).valido, true);
    const short = parseMrz(`${TD3[0]}\n${TD3[1]!.slice(0, 40)}`, TODAY);
    assert.equal(short.ok, false);
    assert.match(short.ok ? '' : short.errore, /3 righe di 30 caratteri.*2 di 44.*questa ha 2 righe di 44, 40 caratteri/);
    const bad = parseMrz(`${TD3[0]}\n${replaceAt(TD3[1]!, 5, '-')}`, TODAY);
    assert.match(bad.ok ? '' : bad.errore, /Carattere non ammesso.*«-»/);
  });

  it('reads an impossible date as null, not as another day', () => {
    const r = parse([TD3[0]!, replaceAt(replaceAt(TD3[1]!, 15, '1'), 16, '3')]);
    assert.equal(r.campi.data_nascita, null, 'month 13 is not a date');
  });
});
