import assert from 'node:assert/strict';
import {
  codiceFiscaleCheckChar, decodeOmocodia, dedupeKey, isValidCodiceFiscale, isValidCodiceFiscalePersona, isValidPartitaIva,
  normalisePartitaIva, normaliseTaxId, partitaIvaCheckDigit,
} from '../../src/domains/records/tax-id';

describe('records: Italian tax ids and the dedupe key', () => {
  it('computes the check letter of a personal codice fiscale', () => {
    // Mario Rossi, born 10 December 1985 in A562: the textbook example.
    assert.equal(codiceFiscaleCheckChar('RSSMRA85T10A562'), 'S');
    // Giulia Verdi, born 1 January 1980 in Rome (H501): women's day is +40.
    assert.equal(codiceFiscaleCheckChar('VRDGLI80A41H501'), 'S');
    assert.equal(codiceFiscaleCheckChar('MRTMTT91D08F205'), 'J');
  });

  it('accepts valid codes, typed in any case and with spaces; refuses a wrong check letter, month or day', () => {
    assert.equal(isValidCodiceFiscalePersona('RSSMRA85T10A562S'), true);
    assert.equal(isValidCodiceFiscalePersona(' rssmra85t10a562s '), true);
    assert.equal(isValidCodiceFiscalePersona('VRDGLI80A41H501S'), true);
    assert.equal(isValidCodiceFiscalePersona('RSSMRA85T10A562T'), false, 'wrong check letter');
    assert.equal(isValidCodiceFiscalePersona('BNCMRC70A01F205Z'), false, 'the check letter of BNCMRC70A01F205 is D');
    assert.equal(isValidCodiceFiscalePersona('BNCMRC70A01F205D'), true);
    // Month letter F does not exist (A B C D E H L M P R S T).
    assert.equal(isValidCodiceFiscalePersona('RSSMRA85F10A562' + codiceFiscaleCheckChar('RSSMRA85F10A562')), false);
    // Day 35 is neither a man's (1-31) nor a woman's (41-71).
    assert.equal(isValidCodiceFiscalePersona('RSSMRA85T35A562' + codiceFiscaleCheckChar('RSSMRA85T35A562')), false);
    assert.equal(isValidCodiceFiscalePersona('RSSMRA85T10A56'), false, 'too short');
  });

  it('accepts omocodia substitutions with their own check letter, and decodes them', () => {
    // The second Mario Rossi of that day and place: the last digit of the place code, 2, becomes N.
    const omocode = 'RSSMRA85T10A56N';
    const cf = omocode + codiceFiscaleCheckChar(omocode);
    assert.equal(cf, 'RSSMRA85T10A56NH');
    assert.equal(isValidCodiceFiscalePersona(cf), true);
    assert.equal(decodeOmocodia(cf), 'RSSMRA85T10A562H');
    // The day itself substituted (1 -> M, 0 -> L) still reads as day 10.
    const dayOmocode = 'RSSMRA85TMLA562';
    assert.equal(isValidCodiceFiscalePersona(dayOmocode + codiceFiscaleCheckChar(dayOmocode)), true);
    // A letter outside L-V in a digit position is not omocodia.
    const bad = 'RSSMRA85T10A56A';
    assert.equal(isValidCodiceFiscalePersona(bad + codiceFiscaleCheckChar(bad)), false);
  });

  it('checks the partita IVA check digit', () => {
    // Agenzia delle Entrate; a large listed company.
    assert.equal(partitaIvaCheckDigit('0636339100'), 1);
    assert.equal(isValidPartitaIva('06363391001'), true);
    assert.equal(isValidPartitaIva('00743110157'), true);
    assert.equal(isValidPartitaIva('IT 00743110157'), true, 'the VAT prefix is dropped');
    assert.equal(isValidPartitaIva('00743110158'), false, 'wrong check digit');
    assert.equal(isValidPartitaIva('0074311015'), false, 'ten digits');
    assert.equal(isValidPartitaIva('00000000000'), false, 'all zeros');
    assert.equal(normalisePartitaIva('IT06363391001'), '06363391001');
  });

  it('treats an 11-digit codice fiscale as an entity\'s, with the partita IVA rule', () => {
    assert.equal(isValidCodiceFiscale('06363391001'), true);
    assert.equal(isValidCodiceFiscale('06363391002'), false);
    assert.equal(isValidCodiceFiscale('RSSMRA85T10A562S'), true);
  });

  it('normalises what people type', () => {
    assert.equal(normaliseTaxId(' rss mra-85t10.a562s '), 'RSSMRA85T10A562S');
  });

  it('builds one dedupe key per real person or company, from verified ids only', () => {
    assert.equal(dedupeKey({ tipo_soggetto: 'persona_fisica', codice_fiscale: 'rssmra85t10a562s' }), 'CF:RSSMRA85T10A562S');
    // A sole trader is the person: the same key as the person's own record.
    assert.equal(dedupeKey({ tipo_soggetto: 'ditta_individuale', codice_fiscale: 'RSSMRA85T10A562S', partita_iva: '00743110157' }), 'CF:RSSMRA85T10A562S');
    assert.equal(dedupeKey({ tipo_soggetto: 'societa', codice_fiscale: '06363391001', partita_iva: '06363391001' }), 'PIVA:06363391001');
    assert.equal(dedupeKey({ tipo_soggetto: 'societa', partita_iva: 'IT00743110157' }), 'PIVA:00743110157');
    // The omocode is another person: never merged with the base code's holder.
    assert.notEqual(dedupeKey({ tipo_soggetto: 'persona_fisica', codice_fiscale: 'RSSMRA85T10A56NH' }), dedupeKey({ tipo_soggetto: 'persona_fisica', codice_fiscale: 'RSSMRA85T10A562S' }));
    assert.equal(dedupeKey({ tipo_soggetto: 'persona_fisica', codice_fiscale_estero: 'ab 123-456', paese_fiscale: 'de' }), 'EST:DE:AB123456');
    assert.equal(dedupeKey({ tipo_soggetto: 'persona_fisica', codice_fiscale: 'BNCMRC70A01F205Z' }), null, 'an invalid code merges nobody');
    assert.equal(dedupeKey({ tipo_soggetto: 'persona_fisica', partita_iva: '00743110157' }), null, 'a person is not keyed by a VAT number');
    assert.equal(dedupeKey({ tipo_soggetto: 'persona_fisica', codice_fiscale_estero: 'X1' }), null, 'a foreign id needs its country');
  });
});
