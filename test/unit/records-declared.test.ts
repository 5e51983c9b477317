import assert from 'node:assert/strict';
import { checkAteco } from '../../src/domains/records/ateco';
import { declaredFromAnswers, declaredVolumes, VOLUME_ANNUO_BANDS, yearlyVolumeOf } from '../../src/domains/records/records.declared';
import { checkExternalCode } from '../../src/domains/records/records.external-code';
import { declaredVolume } from '../../src/domains/risk/engine/engine.profile';

describe('records: ATECO codes, external codes and the declared profile', () => {
  it('takes ATECO codes of every level whose division exists, spaces dropped', () => {
    for (const ok of ['47', '47.1', '47.11', '47.11.1', '47.11.10', '01.11.00', '99', ' 62.01.00 ']) {
      const r = checkAteco(ok);
      assert.ok(r.ok, ok);
      assert.equal(r.ok && r.value, ok.trim());
    }
    for (const bad of ['4', '471', '47.', '47.111', '47.1.1', '47.11.100', 'A47', '47,11', '']) {
      const r = checkAteco(bad);
      assert.ok(!r.ok && /formato NN/.test(r.message), bad);
    }
    for (const gap of ['00', '04', '34', '40.11', '44', '48', '54', '57', '67', '76', '83', '89']) {
      const r = checkAteco(gap);
      assert.ok(!r.ok && /divisione/.test(r.message), gap);
    }
  });

  it('takes external codes of letters, digits and . _ - / : up to 64 characters', () => {
    for (const ok of ['CLI-0001', '00012345', 'A', 'ab/2023:7_x.1', 'x'.repeat(64)]) assert.ok(checkExternalCode(ok).ok, ok);
    for (const bad of ['', 'CLI 0001', '-CLI', 'x'.repeat(65), 'è1', 'a;b']) assert.ok(!checkExternalCode(bad).ok, bad);
  });

  it('derives the yearly volume from the monthly one and back where only one is declared (cents), each as declared where both are', () => {
    assert.deepEqual(declaredVolumes({ mensile: 2500, annuo: null }), { mensile: 2500, annuo: 30_000 });
    assert.deepEqual(declaredVolumes({ mensile: null, annuo: 10_000 }), { mensile: 833.33, annuo: 10_000 });
    assert.deepEqual(declaredVolumes({ mensile: 1000, annuo: 50_000 }), { mensile: 1000, annuo: 50_000 });
    assert.deepEqual(declaredVolumes({ mensile: null, annuo: null }), { mensile: null, annuo: null });
    assert.deepEqual(declaredVolumes({ mensile: -5, annuo: Number.NaN }), { mensile: null, annuo: null });
  });

  it('reads the questionnaire\'s band as its ceiling, and the risk profile\'s yearly volume by the same rule', () => {
    assert.equal(yearlyVolumeOf({ volume_annuo: '10k_50k' }), 50_000);
    assert.equal(yearlyVolumeOf({ volume_annuo: 'oltre_1m' }), 1_000_000);
    assert.equal(yearlyVolumeOf({ volume_annuo: 'boh' }), null);
    assert.deepEqual(Object.keys(VOLUME_ANNUO_BANDS), ['fino_10k', '10k_50k', '50k_250k', '250k_1m', 'oltre_1m']);
    // The band wins for the yearly figure; without it, 12 x the record's monthly; without either, the wallets'.
    assert.equal(declaredVolume({ volume_annuo: 'fino_10k' }, [], 5000), 10_000);
    assert.equal(declaredVolume({}, [20_000], 2500.5), 30_006);
    assert.equal(declaredVolume({}, [20_000, 5_000], null), 25_000);
    assert.equal(declaredVolume({}, [], null), null);
  });

  it('maps the answers into the record\'s fields, keeping what the record holds when it agrees with them', () => {
    assert.deepEqual(declaredFromAnswers({ volume_annuo: '10k_50k', contanti: true, professione: ' Medico ' }),
      { volume_mensile_atteso_eur: 4166.67, uso_contanti_atteso: 'alto', professione: 'Medico' });
    assert.deepEqual(declaredFromAnswers({ volume_annuo: 'fino_10k', contanti: 'no' }), { volume_mensile_atteso_eur: 833.33, uso_contanti_atteso: 'basso' });
    assert.deepEqual(declaredFromAnswers({ scopo_rapporto: 'investimento' }), {});
    // 12 x 3,000 = 36,000 is within 10k-50k: the precise figure stays; 'nessuno' agrees with "no relevant cash".
    assert.deepEqual(declaredFromAnswers({ volume_annuo: '10k_50k', contanti: false }, { volume_mensile_atteso_eur: 3000, uso_contanti_atteso: 'nessuno' }), {});
    // 12 x 500 = 6,000 is below the band: replaced by the band's ceiling; 'basso' contradicts "relevant cash".
    assert.deepEqual(declaredFromAnswers({ volume_annuo: '10k_50k', contanti: true }, { volume_mensile_atteso_eur: 500, uso_contanti_atteso: 'basso' }),
      { volume_mensile_atteso_eur: 4166.67, uso_contanti_atteso: 'alto' });
    assert.deepEqual(declaredFromAnswers({ volume_annuo: 'fino_10k' }, { volume_mensile_atteso_eur: 0 }), {}, 'zero is within "up to 10k"');
    assert.deepEqual(declaredFromAnswers({ volume_annuo: 'oltre_1m', contanti: true }, { volume_mensile_atteso_eur: 200_000, uso_contanti_atteso: 'medio' }), {});
  });
});
