import assert from 'node:assert/strict';
import { normalizeName, normalizedText } from '../../../src/domains/screening/lib/match/normalize';
import { scorePair } from '../../../src/domains/screening/lib/match/screener';
import { tokenSimilarity, jaroWinkler } from '../../../src/domains/screening/lib/match/token-similarity';
import { makeToken } from '../../../src/domains/screening/lib/match/normalize';
import { qualifierEffect, schemaFactor } from '../../../src/domains/screening/lib/match/qualifiers';
import { emptyEntry } from '../../../src/domains/screening/lib/types';

const score = (a: string, b: string, schema?: Parameters<typeof scorePair>[2]) => scorePair(a, b, schema).score;

describe('screening normalisation', () => {
  it('folds case, accents and punctuation', () => {
    assert.equal(normalizedText("  O'Brien-Müller, José  "), 'obrien muller jose');
    assert.equal(normalizedText('J.P. MORGAN'), 'jp morgan');
  });

  it('transliterates Cyrillic, Greek, Arabic, Hebrew and splits CJK / Hangul syllables', () => {
    assert.equal(normalizedText('Владимир Путин'), 'vladimir putin');
    assert.equal(normalizedText('Νικόλαος'), 'nikolaos');
    assert.equal(normalizedText('王小明'), 'wang xiao ming');
    assert.equal(normalizedText('김정은'), 'gim jeong eun');
    const arabic = normalizeName('محمد');
    assert.equal(arabic.tokens[0]!.abjad, true);
    assert.equal(arabic.tokens[0]!.skel, 'mhmd');
  });

  it('maps Cyrillic look-alikes inside a Latin word to Latin letters', () => {
    assert.equal(normalizedText('ROMASHKІN'), 'romashkin');
  });

  it('folds multi-word legal forms and marks them as weak tokens', () => {
    const n = normalizeName('VTB Bank Public Joint Stock Company');
    assert.deepEqual(n.tokens.map((t) => t.text), ['vtb', 'bank', 'pjsc']);
    assert.equal(n.looksLikeOrg, true);
    assert.equal(n.tokens[2]!.kindOrg, 'legal');
    assert.ok(n.tokens[2]!.weightOrg < 0.2);
    assert.deepEqual(normalizeName('Rossi S.p.A.').tokens.map((t) => t.kindOrg), ['name', 'legal']);
    assert.deepEqual(normalizeName('OOO Romashka').tokens.map((t) => t.kindOrg), ['legal', 'name']);
  });
});

describe('screening token similarity', () => {
  it('is 1 for equal tokens and symmetric-ish for typos', () => {
    assert.equal(tokenSimilarity(makeToken('putin'), makeToken('putin')), 1);
    assert.ok(tokenSimilarity(makeToken('usama'), makeToken('usamo')) >= 0.85);
    assert.ok(tokenSimilarity(makeToken('chen'), makeToken('hcen')) >= 0.7, 'transposition is one edit');
    assert.ok(tokenSimilarity(makeToken('aleksandr'), makeToken('alexander')) >= 0.85);
    assert.ok(tokenSimilarity(makeToken('putin'), makeToken('smith')) < 0.55);
    assert.ok(Math.abs(jaroWinkler('martha', 'marhta') - 0.961) < 0.001);
  });

  it('treats a single letter as an initial', () => {
    assert.equal(tokenSimilarity(makeToken('m'), makeToken('muhammad')), 0.85);
    assert.equal(tokenSimilarity(makeToken('k'), makeToken('muhammad')), 0);
  });
});

describe('screening name scorer properties', () => {
  it('identical names score 1, unrelated names score low', () => {
    for (const n of ['Usama bin Laden', 'VTB Bank PJSC', 'Kim Jong Un', 'Иван Иванов']) assert.equal(score(n, n), 1);
    assert.ok(score('Vladimir Putin', 'Maria Garcia') < 0.3);
  });

  it('ignores token order and the "SURNAME, Given" form', () => {
    assert.equal(score('Vladimir Putin', 'PUTIN, Vladimir'), 1);
    assert.equal(score('PUTIN VLADIMIR', 'Vladimir Putin'), 1);
  });

  it('tolerates missing patronymics and middle names more than missing surnames', () => {
    const patronymic = score('Vladimir Putin', 'PUTIN, Vladimir Vladimirovich');
    assert.ok(patronymic >= 0.9, `${patronymic}`);
    assert.ok(score('John Smith', 'JOHN, Damien') < 0.72);
  });

  it('handles legal forms as weak tokens and their abbreviations as equal', () => {
    assert.ok(score('ABC International Limited', 'ABC INTERNATIONAL LTD') >= 0.97);
    assert.ok(score('Acme Corporation', 'ACME CORP') >= 0.97);
    assert.ok(score('VTB Bank', 'VTB BANK PUBLIC JOINT STOCK COMPANY') >= 0.9);
    assert.ok(score('RIX INTERNATIONAL LLC', 'RIXO INTERNATIONAL TRADING LTD.') < 0.85);
  });

  it('joins fused spellings and caps a single-token hit against a longer name', () => {
    assert.ok(score('Osama Binladen', 'Osama bin Laden') >= 0.9);
    assert.ok(score('Abdulrahman', 'Abdul Rahman') >= 0.9);
    const partial = scorePair('PUTIN', 'PUTIN, Vladimir');
    assert.equal(partial.rule, 'partial-name');
    assert.ok(partial.score < 0.85);
  });

  it('tells a different established name from a typo (name-conflict)', () => {
    const mark = scorePair('Mary Taylor', 'TAYLOR, Mark');
    assert.equal(mark.rule, 'name-conflict');
    assert.ok(mark.score < 0.85 && mark.score >= 0.72, `${mark.score}`);
    assert.deepEqual(mark.conflicts?.map((c) => c.query), ['mary']);
    // Masculine / feminine forms of one name.
    assert.ok(score('Francesca Diaz', 'DIAZ, Francisco') < 0.85);
    // An established name next to nothing but other established names is not a spelling of the listed one.
    assert.ok(score('David Meyer', 'MAYER, David') < 0.85);
    // Transliteration variants (vowels only) next to a distinctive exact name still alert.
    assert.ok(score('Mohammed Atta', 'Muhammad ATTA') >= 0.9);
    // Our own transliteration of a Cyrillic name is not the writer's choice of a different name.
    assert.ok(score('Александр Петров', 'Alexander Petrov') >= 0.85);
    // A misspelling that is no established name keeps its typo tolerance, even where the fold trips on it.
    assert.ok(score('Eena Vladimirovna Mikhailova', 'Elena Vladimirovna MIKHAILOVA') >= 0.9);
    assert.ok(score('Kim Man Cuhn', 'KIM, Man Chun') >= 0.85);
    assert.ok(score('Katrangi Air', 'KATRANGI, Amir') >= 0.85, 'a misspelt honorific that is also a name');
  });

  it('lifts a listed name contained in a longer text only when found through separate words', () => {
    assert.ok(score('Gudrun Brennan', 'GOOD RUN LIMITED') < 0.85);
    assert.equal(scorePair('Usama M bin Ladin', 'BIN LADIN, Usama').rule, 'contained-name');
  });

  it('matches across scripts', () => {
    assert.ok(score('Владимир Путин', 'Vladimir Putin') >= 0.95);
    assert.ok(score('محمد علي', 'Mohamed Ali') >= 0.9);
    assert.ok(score('משה', 'Moshe') >= 0.9);
  });

  it('explains the score: token pairs, coverage and unmatched tokens', () => {
    const s = scorePair('Usama M bin Ladin', 'BIN LADIN, Usama');
    assert.ok(s.pairs.some((p) => p.query === 'usama' && p.candidate === 'usama' && p.similarity === 1));
    assert.ok(s.queryCoverage > 0.6 && s.candidateCoverage === 1);
    assert.deepEqual(s.unmatchedQuery, ['m']);
    assert.equal(s.rule, 'contained-name');
    assert.ok(s.score >= 0.9 && s.score <= 1);
  });
});

describe('screening qualifiers and schema', () => {
  const entry = { ...emptyEntry('t', 't:1', 'Person', 'X'), birthDates: ['1957-07-30'], nationalities: ['sa'], gender: 'male' as const };

  it('can only lower a score', () => {
    assert.equal(qualifierEffect({}, entry).factor, 1);
    assert.equal(qualifierEffect({ birthDate: '1957', nationality: 'Saudi Arabia', gender: 'male' }, entry).factor, 1);
    assert.equal(qualifierEffect({ birthDate: '1957-07-30', nationality: 'SA' }, entry).factor, 1);
    const off = qualifierEffect({ birthDate: '1980-01-01', nationality: 'FR', gender: 'female' }, entry);
    assert.ok(off.factor < 0.6 && off.notes.length === 3);
    assert.ok(qualifierEffect({ birthDate: '1958' }, entry).factor < 1);
    const noData = emptyEntry('t', 't:2', 'Person', 'Y');
    assert.equal(qualifierEffect({ birthDate: '1980', nationality: 'FR', gender: 'female' }, noData).factor, 1);
  });

  it('penalises a person query against a vessel, not against Unknown', () => {
    assert.ok(schemaFactor('Person', 'Vessel') < 1);
    assert.equal(schemaFactor('Person', 'Unknown'), 1);
    assert.equal(schemaFactor('Company', 'Organization'), 1);
  });
});
