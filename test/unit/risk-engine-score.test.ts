import assert from 'node:assert/strict';
import { aggregateKey } from '../../src/kit/conditions';
import { CDD_SCHEMA_VERSION, cddSchemaFor, cddWeights } from '../../src/domains/onboarding/onboarding.cdd-schema';
import { classForScore, EEA, IMPACT_KEY, impactForVolume, policyFor, riskLists, scoreProfile } from '../../src/domains/risk';
import { defaultThresholds, defaultVersion, profile } from './risk-engine.fixture';

const OGGI = '2026-11-23';
const score = (p = profile(), aggregati: Record<string, number | null> = {}) => scoreProfile(defaultVersion(), defaultThresholds(), p, aggregati, OGGI);
const codes = (r: ReturnType<typeof score>) => r.contributi.map((c) => c.codice);
const highRisk = [...riskLists().paesi_alto_rischio][0]!;

describe('risk engine: the default model by EBA family', () => {
  it('an Italian natural person met in person, nothing declared: score 0, basso, no contribution', () => {
    const r = score();
    assert.deepEqual([r.punteggio, r.classe, r.classe_da_punteggio, r.pavimento, r.contributi], [0, 'basso', 'basso', null, []]);
    assert.deepEqual(r.versione, { id: 'v1', versione: 1 });
    assert.equal(r.probabilita, 1);
    assert.equal(r.impatto, 1);
  });

  it('customer: the subject type, a PEP with its floor medio_alto, screening matches', () => {
    assert.deepEqual([score(profile({ cliente: { tipo_soggetto: 'societa' } })).punteggio, score(profile({ cliente: { tipo_soggetto: 'ditta_individuale' } })).punteggio], [10, 5]);
    const pep = score(profile({ titolari: { numero: 1, pep: true } }));
    assert.deepEqual(codes(pep), ['pep']);
    assert.equal(pep.punteggio, 30);
    assert.equal(pep.classe, 'medio_alto');
    const match = score(profile({ screening: { corrispondenze_aperte: 2, corrispondenze_confermate: 0 } }));
    assert.deepEqual([codes(match), match.punteggio, match.classe], [['screening_aperto'], 25, 'medio']);
    assert.deepEqual(match.contributi[0]!.letti, [{ path: 'screening.corrispondenze_aperte', valore: 2 }], 'the contribution says what it read');
    const confirmed = score(profile({ screening: { corrispondenze_aperte: 0, corrispondenze_confermate: 1 } }));
    assert.deepEqual([confirmed.classe, confirmed.pavimento], ['alto', null], '40 points are alto without the floor');
    const stricter = defaultThresholds().map((t) => (t.classe === 'alto' ? { ...t, punteggio_min: 60 } : t));
    const floored = scoreProfile(defaultVersion(), stricter, profile({ screening: { corrispondenze_aperte: 0, corrispondenze_confermate: 1 } }), {}, OGGI);
    assert.deepEqual([floored.classe_da_punteggio, floored.classe, floored.pavimento], ['medio_alto', 'alto', { regola: 'screening_confermato', classe: 'alto' }]);
  });

  it('geography: a high-risk third country anywhere forces alto; a country outside the EEA adds 5', () => {
    for (const geografia of [{ paesi_operativita: ['IT', highRisk] }, { nazionalita: highRisk }, { paesi_collegati: [highRisk.toLowerCase()] }]) {
      const r = score(profile({ geografia: { ...geografia, paesi: [] } }));
      assert.deepEqual(codes(r), ['paese_alto_rischio', 'paese_extra_see'], JSON.stringify(geografia));
      assert.equal(r.classe, 'alto');
      assert.equal(r.classe_da_punteggio, 'alto', '45 points are alto on their own');
    }
    const us = score(profile({ geografia: { paesi_operativita: ['IT', 'US'], paesi: [] } }));
    assert.deepEqual([codes(us), us.punteggio, us.classe], [['paese_extra_see'], 5, 'basso']);
    assert.ok(!EEA.has('US') && EEA.has('NO'));
    assert.equal(score(profile({ geografia: { paesi_operativita: ['IT', 'NO', 'DE'], paesi: [] } })).punteggio, 0, 'EEA countries add nothing');
  });

  it('products and transactions: wallets, then the movement aggregates (cash share, volumes against declared and history, counterparties)', () => {
    const wallet = score(profile({ prodotto: { wallet_sanzionati: 1, wallet_self_hosted: 1 } }));
    assert.deepEqual([codes(wallet), wallet.punteggio, wallet.classe, wallet.pavimento], [['wallet_sanzionato', 'wallet_self_hosted'], 45, 'alto', null]);
    const low = score(profile({ prodotto: { wallet_sanzionati: 1 } }));
    assert.deepEqual([low.punteggio, low.classe_da_punteggio, low.classe, low.pavimento], [40, 'alto', 'alto', null]);

    const k = (a: Parameters<typeof aggregateKey>[0]) => aggregateKey(a);
    const aggregati = {
      [k({ fn: 'cash_share', finestra_giorni: 365 })]: 0.6,
      [k({ fn: 'sum', finestra_giorni: 365 })]: 300_000,
      [k({ fn: 'ratio_history', finestra_giorni: 90, storico_giorni: 365 })]: 3.2,
      [k({ fn: 'distinct_counterparties', finestra_giorni: 90 })]: 12,
      [k({ fn: 'count', finestra_giorni: 365, paesi_controparte: { lista: 'paesi_alto_rischio' } })]: 3,
    };
    const r = score(profile({ dichiarato: { volume_annuo_eur: 50_000 } }), aggregati);
    assert.deepEqual(codes(r), ['controparti_alto_rischio', 'quota_contanti', 'volume_oltre_dichiarato', 'volume_oltre_storia']);
    assert.equal(r.punteggio, 15 + 10 + 10 + 10);
    assert.equal(r.impatto, 3, '300k in a year');
    const declared = r.contributi.find((c) => c.codice === 'volume_oltre_dichiarato')!;
    assert.ok(declared.letti.some((l) => l.path === 'dichiarato.volume_annuo_eur' && l.valore === 50_000), JSON.stringify(declared.letti));
    assert.equal(score(profile(), { [k({ fn: 'cash_share', finestra_giorni: 365 })]: null }).punteggio, 0, 'an unknown aggregate fires nothing');
  });

  it('channels: remote onboarding and intermediaries', () => {
    assert.deepEqual(codes(score(profile({ canale: { canale: 'online', intermediario: true } }))), ['canale_remoto', 'intermediario']);
  });

  it('the questionnaire: every weighted answer of onboarding\'s questionnaire scores the same points as before', () => {
    for (const tipo of ['persona_fisica', 'ditta_individuale', 'societa'] as const) {
      for (const q of cddSchemaFor(tipo).domande) {
        const answers = q.tipo === 'booleano' ? [true] : (q.opzioni ?? []).map((o) => o.valore);
        for (const a of answers) {
          const expected = cddWeights(CDD_SCHEMA_VERSION, tipo, { [q.id]: a }).reduce((s, w) => s + w.punti, 0);
          const base = tipo === 'persona_fisica' ? 0 : tipo === 'societa' ? 10 : 5;
          const r = score(profile({ cliente: { tipo_soggetto: tipo }, questionario: { [q.id]: a } }));
          assert.equal(r.punteggio - base, expected, `${tipo} ${q.id}=${String(a)}`);
        }
      }
    }
    const r = score(profile({ questionario: { volume_annuo: 'oltre_1m', contanti: true, origine_fondi: 'vincite' } }));
    assert.deepEqual(codes(r), ['q_origine_fondi_vincite', 'q_volume_oltre_1m', 'q_contanti']);
    assert.deepEqual([r.punteggio, r.classe], [31, 'medio_alto']);
    assert.deepEqual(r.contributi.map((c) => c.fattore), ['cdd_origine_fondi', 'cdd_volume_annuo', 'cdd_contanti']);
  });
});

describe('risk engine: classes, floors and policy', () => {
  it('maps a score to the class of the highest threshold at or below it', () => {
    const s = defaultThresholds();
    assert.deepEqual([-5, 0, 19, 20, 29, 30, 39, 40, 400].map((x) => classForScore(s, x)),
      ['basso', 'basso', 'basso', 'medio', 'medio', 'medio_alto', 'medio_alto', 'alto', 'alto']);
    assert.deepEqual(classForScore([], 50), 'basso');
  });

  it('a floor raises the class and is recorded; a lower floor than the score\'s class is not', () => {
    const pepHigh = score(profile({ cliente: { tipo_soggetto: 'societa', pep: true }, canale: { canale: 'online' } }));
    assert.deepEqual([pepHigh.punteggio, pepHigh.classe_da_punteggio, pepHigh.classe, pepHigh.pavimento], [45, 'alto', 'alto', null]);
    const pepLow = score(profile({ cliente: { pep: true } }));
    assert.deepEqual([pepLow.classe_da_punteggio, pepLow.classe], ['medio_alto', 'medio_alto']);
    const floorOnly = scoreProfile(defaultVersion(), defaultThresholds().map((t) => (t.classe === 'medio_alto' ? { ...t, punteggio_min: 35 } : t)), profile({ cliente: { pep: true } }), {}, OGGI);
    assert.deepEqual([floorOnly.classe_da_punteggio, floorOnly.classe, floorOnly.pavimento], ['medio', 'medio_alto', { regola: 'pep', classe: 'medio_alto' }]);
    assert.equal(floorOnly.probabilita, 3);
  });

  it('inactive rules do not score; negative points lower the score', () => {
    const v = defaultVersion();
    v.regole = v.regole.map((r) => (r.codice === 'tipo_societa' ? { ...r, attiva: false } : r.codice === 'canale_remoto' ? { ...r, punti: -5 } : r));
    const r = scoreProfile(v, defaultThresholds(), profile({ cliente: { tipo_soggetto: 'societa' }, canale: { canale: 'online' } }), {}, OGGI);
    assert.deepEqual([r.punteggio, codes(r)], [-5, ['canale_remoto']]);
  });

  it('policy: CDD level, review months and approval per class; impact bands of the yearly volume', () => {
    const s = defaultThresholds();
    assert.deepEqual(['basso', 'medio', 'medio_alto', 'alto'].map((c) => { const p = policyFor(s, c as never); return [p.livello_cdd, p.revisione_mesi]; }),
      [['semplificata', 60], ['ordinaria', 36], ['ordinaria', 24], ['rafforzata', 12]]);
    assert.deepEqual([0, 49_999, 50_000, 249_999, 250_000, 999_999, 1_000_000, null].map(impactForVolume), [1, 1, 2, 2, 3, 3, 4, 1]);
    assert.equal(score(profile(), { [IMPACT_KEY]: 2_000_000 }).impatto, 4);
  });
});
