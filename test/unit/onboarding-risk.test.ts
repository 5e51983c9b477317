import assert from 'node:assert/strict';
import { CDD_SCHEMA_VERSION } from '../../src/domains/onboarding/onboarding.cdd-schema';
import { RISK_MODEL, RISK_POINTS, RISK_THRESHOLDS, riskClass, scoreRisk, type RiskInput } from '../../src/domains/onboarding/onboarding.risk';
import { EU_HIGH_RISK } from '../../src/domains/onboarding/countries';
import { riskInputOf, subjectsOf } from '../../activities/onboarding/onboarding-screening';
import { companyAnagrafe, companyCdd, companyOwners, UBO_A, UBO_B } from '../workflows/fixtures/onboarding-application';

const base = (over: Partial<RiskInput> = {}): RiskInput => ({
  subjectType: 'persona_fisica', countries: ['IT'], nationalities: ['IT'], residences: ['IT'], pep: false, screeningMatches: 0, walletHits: 0,
  selfHostedWallets: 0, canale: 'sportello', cdd: { version: CDD_SCHEMA_VERSION, answers: { volume_annuo: 'fino_10k', contanti: false } }, ...over,
});
const codes = (r: ReturnType<typeof scoreRisk>) => r.fattori.map((f) => f.codice);

describe('onboarding risk model', () => {
  it('an Italian natural person met in person, small volumes: low risk, no factor, one approval', () => {
    const r = scoreRisk(base());
    assert.deepEqual(r, { score: 0, classe: 'basso', fattori: [], pep: false, screeningMatches: 0, walletHits: 0, secondApprovalRequired: false, modello: RISK_MODEL });
  });

  it('adds points per factor, each with an Italian description', () => {
    const r = scoreRisk(base({ subjectType: 'societa', canale: 'online', selfHostedWallets: 2, countries: ['IT', 'US'] }));
    assert.deepEqual(codes(r), ['tipo_soggetto', 'paese_extra_see', 'wallet_self_hosted', 'canale_remoto']);
    assert.equal(r.score, RISK_POINTS.subjectType.societa + RISK_POINTS.nonEeaCountry + RISK_POINTS.selfHostedWallet + RISK_POINTS.nonFaceToFace);
    assert.match(r.fattori.find((f) => f.codice === 'paese_extra_see')!.descrizione, /Stati Uniti \(US\)/);
    assert.equal(r.classe, 'medio');
    assert.equal(r.secondApprovalRequired, false);
  });

  it('weights the questionnaire answers', () => {
    const r = scoreRisk(base({ cdd: { version: CDD_SCHEMA_VERSION, answers: { volume_annuo: 'oltre_1m', contanti: 'si', origine_fondi: 'vincite' } } }));
    assert.deepEqual(codes(r), ['cdd_origine_fondi', 'cdd_volume_annuo', 'cdd_contanti']);
    assert.equal(r.score, 8 + 15 + 8);
    assert.equal(r.classe, 'medio');
    assert.equal(scoreRisk(base({ cdd: { version: 'unknown', answers: { volume_annuo: 'oltre_1m' } } })).score, 0);
  });

  it('classes by thresholds', () => {
    assert.equal(riskClass(RISK_THRESHOLDS.medio - 1), 'basso');
    assert.equal(riskClass(RISK_THRESHOLDS.medio), 'medio');
    assert.equal(riskClass(RISK_THRESHOLDS.alto - 1), 'medio');
    assert.equal(riskClass(RISK_THRESHOLDS.alto), 'alto');
    assert.equal(scoreRisk(base({ subjectType: 'societa', pep: true, canale: 'online' })).classe, 'alto');
  });

  it('an EU high-risk third country anywhere (operations, nationality, residence) forces high risk', () => {
    const country = [...EU_HIGH_RISK][0]!;
    for (const over of [{ countries: ['IT', country] }, { nationalities: [country] }, { residences: [country.toLowerCase()] }]) {
      const r = scoreRisk(base(over));
      assert.equal(r.classe, 'alto', JSON.stringify(over));
      assert.equal(r.score, RISK_POINTS.highRiskCountry);
      assert.deepEqual(codes(r), ['paese_alto_rischio']);
      assert.equal(r.secondApprovalRequired, true);
    }
  });

  it('a sanctioned wallet forces high risk; PEP and screening matches ask for a second approval', () => {
    const wallet = scoreRisk(base({ walletHits: 1 }));
    assert.equal(wallet.classe, 'alto');
    assert.equal(wallet.secondApprovalRequired, true);
    const pep = scoreRisk(base({ pep: true }));
    assert.equal(pep.classe, 'medio');
    assert.equal(pep.pep, true);
    assert.equal(pep.secondApprovalRequired, true);
    const match = scoreRisk(base({ screeningMatches: 2 }));
    assert.equal(match.classe, 'medio');
    assert.equal(match.screeningMatches, 2);
    assert.equal(match.secondApprovalRequired, true);
    assert.match(match.fattori[0]!.descrizione, /2$/);
  });

  it('caps the score at 100', () => {
    const r = scoreRisk(base({ subjectType: 'societa', pep: true, screeningMatches: 3, walletHits: 1, countries: [[...EU_HIGH_RISK][0]!], canale: 'online' }));
    assert.equal(r.score, 100);
    assert.equal(r.classe, 'alto');
  });
});

describe('onboarding risk input from a stored case', () => {
  const row = (over: Record<string, unknown> = {}) => ({
    id: 'c-1', cod_azienda: 'X', stato: 'submitted', workflow_id: 'w', tipo_soggetto: 'societa', canale: 'online',
    anagrafe: companyAnagrafe(), ubo: companyOwners(), countries: [{ paese: 'it', ruolo: 'clienti' }], cdd_schema_version: CDD_SCHEMA_VERSION, cdd_answers: companyCdd(),
    screening: { soggetti: [{ riferimento: 'soggetto', matches: 0 }, { riferimento: `ubo:${UBO_A}`, matches: 2 }] }, ...over,
  });

  it('gathers countries, PEP and stored screening of the customer, legal representative and owners', () => {
    const owners = companyOwners();
    owners[1]!.pep = 'si' as unknown as boolean;
    const input = riskInputOf(row({ ubo: owners }), [
      { tipo: 'self_hosted', stato: 'pending', screening: { hit: true } }, { tipo: 'self_hosted', stato: 'revoked', screening: { hit: true } }, { tipo: 'custodial', stato: 'verified' },
    ]);
    assert.equal(input.pep, true);
    assert.equal(input.screeningMatches, 2);
    assert.equal(input.walletHits, 1, 'a revoked wallet no longer counts');
    assert.equal(input.selfHostedWallets, 1);
    assert.deepEqual(input.countries, ['IT']);
    assert.ok(input.residences.includes('CH'));
    const r = scoreRisk(input);
    assert.equal(r.classe, 'alto');
    assert.equal(r.secondApprovalRequired, true);
  });

  it('screens the customer, the legal representative and each owner under keys bound to the case', () => {
    assert.deepEqual(subjectsOf(row()).map((s) => [s.riferimento, s.input.tipo, s.input.nome, s.input.cod_anagrafe]), [
      ['soggetto', 'company', 'Alfa Beta S.r.l.', 'onboarding:c-1:soggetto'],
      ['legale_rappresentante', 'person', 'Giulia Verdi', 'onboarding:c-1:legale_rappresentante'],
      [`ubo:${UBO_A}`, 'person', 'Marco Bianchi', `onboarding:c-1:ubo:${UBO_A}`],
      [`ubo:${UBO_B}`, 'person', 'Anna Neri', `onboarding:c-1:ubo:${UBO_B}`],
    ]);
    const trader = subjectsOf(row({ tipo_soggetto: 'ditta_individuale', anagrafe: { nome: 'Mario', cognome: 'Rossi', denominazione: 'Rossi Ricambi', data_nascita: '1980-01-01', nazionalita: 'IT' }, ubo: [] }));
    assert.deepEqual(trader.map((s) => [s.riferimento, s.input.tipo, s.input.nome]), [['soggetto', 'person', 'Mario Rossi'], ['ditta', 'company', 'Rossi Ricambi']]);
  });
});
