import assert from 'node:assert/strict';
import { cddLevel, type CddLevelInput } from '../../src/domains/cdd/cdd-level';
import { highRiskLists, type HighRiskLists } from '../../src/domains/cdd/high-risk-countries';

const lists: HighRiskLists = {
  eu: new Set(['AF', 'IR']), fatfBlack: new Set(['KP', 'IR']), fatfGrey: new Set(['MC', 'VN']), asOf: { eu: 'x', fatf: 'y' },
};
const base: CddLevelInput = { classeRischio: 'medio', pep: false, pepCollegati: [], paesi: [{ paese: 'IT', ruolo: 'residenza' }] };
const codes = (r: ReturnType<typeof cddLevel>) => r.motivazioni.map((m) => m.codice);

describe('CDD level rules (art. 23-25 d.lgs. 231/2007)', () => {
  it('a PEP customer is always enhanced, even at low risk', () => {
    const r = cddLevel({ ...base, classeRischio: 'basso', pep: true }, lists);
    assert.equal(r.livello, 'rafforzata');
    assert.deepEqual(codes(r), ['pep']);
  });

  it('a PEP beneficial owner makes the customer enhanced and is named in the reason', () => {
    const r = cddLevel({ ...base, classeRischio: 'basso', pepCollegati: ['ANA-000007', 'ANA-000007'] }, lists);
    assert.equal(r.livello, 'rafforzata');
    assert.equal(r.motivazioni.length, 1);
    assert.match(r.motivazioni[0]!.testo, /ANA-000007/);
  });

  it('a link with an EU high-risk third country is enhanced; a black-listed one says both lists', () => {
    assert.equal(cddLevel({ ...base, classeRischio: 'basso', paesi: [{ paese: 'af', ruolo: 'nazionalita' }] }, lists).livello, 'rafforzata');
    const r = cddLevel({ ...base, paesi: [{ paese: 'IR', ruolo: 'titolare_effettivo' }] }, lists);
    assert.deepEqual(codes(r), ['paese_alto_rischio_ue', 'paese_gafi_black']);
    assert.match(r.motivazioni[0]!.testo, /titolare effettivo: IR/);
  });

  it('a FATF grey-listed country is enhanced too', () => {
    const r = cddLevel({ ...base, paesi: [{ paese: 'VN', ruolo: 'operativita' }] }, lists);
    assert.equal(r.livello, 'rafforzata');
    assert.deepEqual(codes(r), ['paese_gafi_grey']);
  });

  it('a high risk class is enhanced', () => {
    const r = cddLevel({ ...base, classeRischio: 'alto' }, lists);
    assert.equal(r.livello, 'rafforzata');
    assert.deepEqual(codes(r), ['classe_alta']);
  });

  it('low risk with no aggravating factor is simplified', () => {
    const r = cddLevel({ ...base, classeRischio: 'basso' }, lists);
    assert.equal(r.livello, 'semplificata');
    assert.deepEqual(codes(r), ['classe_bassa']);
  });

  it('low risk with declared cash or a screening match is ordinary, with the factor as reason', () => {
    const cash = cddLevel({ ...base, classeRischio: 'basso', contanti: true }, lists);
    assert.equal(cash.livello, 'ordinaria');
    assert.deepEqual(codes(cash), ['classe_basso', 'contanti']);
    assert.equal(cddLevel({ ...base, classeRischio: 'basso', matchScreening: 2 }, lists).livello, 'ordinaria');
  });

  it('medium, medium-high and an unknown class are ordinary', () => {
    assert.equal(cddLevel({ ...base, classeRischio: 'medio' }, lists).livello, 'ordinaria');
    assert.equal(cddLevel({ ...base, classeRischio: 'medio_alto' }, lists).livello, 'ordinaria');
    const unknown = cddLevel({ ...base, classeRischio: null }, lists);
    assert.equal(unknown.livello, 'ordinaria');
    assert.deepEqual(codes(unknown), ['classe_non_determinata']);
  });

  it('the same country in the same role counts once', () => {
    const r = cddLevel({ ...base, paesi: [{ paese: 'AF', ruolo: 'residenza' }, { paese: 'AF', ruolo: 'residenza' }] }, lists);
    assert.equal(r.motivazioni.length, 1);
  });

  it('the shipped lists: Iran and North Korea are black-listed third countries; an EU member state never counts as a third country', () => {
    const real = highRiskLists();
    assert.ok(real.fatfBlack.has('KP') && real.fatfBlack.has('IR'));
    assert.ok(real.eu.has('AF'));
    assert.ok(!real.fatfGrey.has('BG'), 'Bulgaria is a member state');
    assert.equal(cddLevel({ ...base, classeRischio: 'basso', paesi: [{ paese: 'BG', ruolo: 'residenza' }] }, real).livello, 'semplificata');
    assert.equal(cddLevel({ ...base, classeRischio: 'basso', paesi: [{ paese: 'MC', ruolo: 'residenza' }] }, real).livello, 'rafforzata');
  });
});
