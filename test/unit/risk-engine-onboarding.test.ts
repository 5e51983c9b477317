import assert from 'node:assert/strict';
import { applicantProfile, subjectsOf } from '../../activities/onboarding/onboarding-screening';
import { CDD_SCHEMA_VERSION } from '../../src/domains/onboarding/onboarding.cdd-schema';
import { secondApprovalRequired } from '../../src/domains/onboarding/onboarding.four-eyes';
import { explainContribution, riskLists, scoreProfile } from '../../src/domains/risk';
import { companyAnagrafe, companyCdd, companyOwners, UBO_A, UBO_B } from '../workflows/fixtures/onboarding-application';
import { defaultThresholds, defaultVersion } from './risk-engine.fixture';

/** Onboarding scores through the risk engine: the applicant's profile from the stored case, the default rule set's points. */
describe('risk engine at onboarding: the applicant\'s profile and score', () => {
  const row = (over: Record<string, unknown> = {}) => ({
    id: 'c-1', cod_azienda: 'X', stato: 'submitted', workflow_id: 'w', tipo_soggetto: 'societa', canale: 'online',
    anagrafe: companyAnagrafe(), ubo: companyOwners(), countries: [{ paese: 'it', ruolo: 'clienti' }], cdd_schema_version: CDD_SCHEMA_VERSION, cdd_answers: companyCdd(),
    screening: { soggetti: [{ riferimento: 'soggetto', matches: 0 }, { riferimento: `ubo:${UBO_A}`, matches: 2 }] }, ...over,
  });
  const score = (p: ReturnType<typeof applicantProfile>) => scoreProfile(defaultVersion(), defaultThresholds(), p, {}, '2026-11-23');

  it('gathers countries, PEP, stored screening and live wallets of the customer, legal representative and owners', () => {
    const owners = companyOwners();
    owners[1]!.pep = 'si' as unknown as boolean;
    const p = applicantProfile(row({ ubo: owners }), [
      { tipo: 'self_hosted', stato: 'pending', screening: { hit: true } }, { tipo: 'self_hosted', stato: 'revoked', screening: { hit: true } }, { tipo: 'custodial', stato: 'verified' },
    ]);
    assert.deepEqual([p.cliente.tipo_soggetto, p.cliente.pep_collegati, p.titolari.pep, p.titolari.numero], ['societa', true, true, 2]);
    assert.deepEqual(p.screening, { corrispondenze_aperte: 2, corrispondenze_confermate: 0 });
    assert.deepEqual([p.prodotto.wallet_sanzionati, p.prodotto.wallet_self_hosted], [1, 1], 'a revoked wallet no longer counts');
    assert.deepEqual(p.geografia.paesi_operativita, ['IT']);
    assert.ok(p.geografia.paesi.includes('CH'), 'an owner resident in Switzerland');
    assert.equal(p.canale.canale, 'online');
    const r = score(p);
    assert.equal(r.classe, 'alto');
    assert.ok(r.contributi.some((c) => c.codice === 'wallet_sanzionato' && c.classe_minima === 'alto'));
    assert.equal(secondApprovalRequired({ classe: r.classe, pep: true, screeningMatches: 2, walletHits: 1 }), true);
  });

  it('an Italian person met in person with small volumes: no factor, one approval', () => {
    const p = applicantProfile(row({
      tipo_soggetto: 'persona_fisica', canale: 'sportello', ubo: [], screening: null,
      anagrafe: { nome: 'Mario', cognome: 'Rossi', nazionalita: 'IT', paese_residenza: 'IT' },
      cdd_answers: { volume_annuo: 'fino_10k', contanti: false },
    }), []);
    const r = score(p);
    assert.deepEqual([r.punteggio, r.classe, r.contributi], [0, 'basso', []]);
    assert.equal(secondApprovalRequired({ classe: r.classe, pep: false, screeningMatches: 0, walletHits: 0 }), false);
  });

  it('reads the questionnaire only under a known version', () => {
    const known = score(applicantProfile(row({ cdd_answers: { ...companyCdd(), volume_annuo: 'oltre_1m' } }), []));
    assert.ok(known.contributi.some((c) => c.codice === 'q_volume_oltre_1m'));
    const unknown = score(applicantProfile(row({ cdd_schema_version: 'unknown', cdd_answers: { volume_annuo: 'oltre_1m' } }), []));
    assert.ok(!unknown.contributi.some((c) => c.fattore.startsWith('cdd_')));
  });

  it('explains a contribution in one sentence with the countries of the list it matched', () => {
    const p = applicantProfile(row({ countries: [{ paese: 'IR', ruolo: 'clienti' }, { paese: 'US', ruolo: 'fornitori' }] }), []);
    const r = score(p);
    const high = r.contributi.find((c) => c.codice === 'paese_alto_rischio')!;
    assert.match(explainContribution(high, riskLists(), 'paesi_alto_rischio'), /^Collegamento con paesi terzi ad alto rischio .*: Iran \(IR\)$/);
    const screening = r.contributi.find((c) => c.codice === 'screening_aperto')!;
    assert.match(explainContribution(screening), /: 2$/);
    assert.equal(secondApprovalRequired({ classe: 'medio_alto', pep: false, screeningMatches: 0, walletHits: 0 }), true, 'medium-high needs four eyes too');
  });

  it('screens the customer, the legal representative and each owner under keys bound to the case', () => {
    assert.deepEqual(subjectsOf(row()).map((s) => [s.riferimento, s.input.tipo, s.input.nome, s.input.cod_anagrafe]), [
      ['soggetto', 'company', 'Alfa Beta S.r.l.', 'onboarding:c-1:soggetto'],
      ['legale_rappresentante', 'person', 'Giulia Verdi', 'onboarding:c-1:legale_rappresentante'],
      [`ubo:${UBO_A}`, 'person', 'Marco Bianchi', `onboarding:c-1:ubo:${UBO_A}`],
      [`ubo:${UBO_B}`, 'person', 'Anna Neri', `onboarding:c-1:ubo:${UBO_B}`],
    ]);
  });
});
