import assert from 'node:assert/strict';
import { evaluateTravelRule, type TravelRuleFacts } from '../../src/domains/verifications/travel-rule/travel-rule.rules';
import { travelRuleProofMessage } from '../../src/domains/verifications/travel-rule/travel-rule.proof';
import type { TravelRuleScreening } from '../../src/domains/verifications/travel-rule/travel-rule.types';
import { ethWallet, ivms101Payload } from '../helpers/travel-rule-fixture';

const clean: TravelRuleScreening = {
  eseguito_at: '2026-11-23T10:00:00.000Z', soglie: { review: 0.7, match: 0.85 },
  nomi: [{ ruolo: 'originatore', nome: 'Mario Rossi', tipo: 'person', hits: [] }, { ruolo: 'beneficiario', nome: 'Giulia Bianchi', tipo: 'person', hits: [] }],
  indirizzi: [{ ruolo: 'beneficiario', indirizzo: '0x2222222222222222222222222222222222222222', hit: false, entries: [] }],
};

const facts = (over: Partial<TravelRuleFacts> = {}): TravelRuleFacts => ({
  codAzienda: 'AZ1', codTransazione: 'TRR-000001', direzione: 'in_entrata', ivms101: ivms101Payload(), rete: 'ETH', asset: 'ETH',
  indirizzo_originatore: '0x1111111111111111111111111111111111111111', indirizzo_beneficiario: '0x2222222222222222222222222222222222222222',
  tipo_wallet: 'vasp', importo_eur: 2500, prova_controllo: null, screening: clean, richiesteInformazioni: 0, ...over,
});
const esito = (r: ReturnType<typeof evaluateTravelRule>, regola: string) => r.regole.find((x) => x.regola === regola)?.esito;

describe('travel-rule decision rules (Reg. (UE) 2023/1113)', () => {
  it('complete information, clean screening, provider wallet: approved, every stricter decision allowed', () => {
    const r = evaluateTravelRule(facts());
    assert.equal(r.proposta, 'approved');
    assert.deepEqual(r.decisioni_ammesse, ['approved', 'held', 'returned', 'rejected']);
    assert.deepEqual(r.informazioni_mancanti, []);
    assert.equal(esito(r, 'originatore_identificazione'), 'rispettata');
    assert.equal(esito(r, 'prova_controllo'), 'non_applicabile');
    // Outgoing: the originator's provider does not "return" a transfer it has not executed.
    assert.deepEqual(evaluateTravelRule(facts({ direzione: 'in_uscita' })).decisioni_ammesse, ['approved', 'held', 'rejected']);
  });

  it('art. 14(1)(d): date and place of birth stand in for address, document and customer number', () => {
    const p = ivms101Payload() as any;
    const np = p.originator.originatorPersons[0].naturalPerson;
    delete np.geographicAddress; delete np.nationalIdentification; delete np.customerIdentification;
    assert.equal(esito(evaluateTravelRule(facts({ ivms101: p })), 'originatore_identificazione'), 'rispettata');
    delete np.dateAndPlaceOfBirth;
    const r = evaluateTravelRule(facts({ ivms101: p }));
    assert.equal(esito(r, 'originatore_identificazione'), 'mancante');
    assert.equal(r.proposta, 'held');
  });

  it('art. 16-17: missing beneficiary name and originator identification hold the transfer and list what to ask for', () => {
    const r = evaluateTravelRule(facts({ ivms101: ivms101Payload({ senzaIdentificazione: true, senzaNomeBeneficiario: true }) }));
    assert.equal(r.proposta, 'held');
    assert.deepEqual(r.decisioni_ammesse, ['held', 'returned', 'rejected']);
    assert.deepEqual(r.informazioni_mancanti.map((m) => [m.campo, m.articolo]), [
      ['/originator/originatorPersons/0/naturalPerson', 'art. 14(1)(d)'],
      ['/beneficiary/beneficiaryPersons/0/naturalPerson/name', 'art. 14(2)(a)'],
    ]);
    assert.match(r.informazioni_mancanti[0]!.descrizione, /indirizzo con paese.*numero del documento.*codice cliente.*data e luogo di nascita/);
    assert.equal(esito(r, 'richieste_ripetute'), 'rispettata');
  });

  it('art. 17(2): information asked for twice without an answer: returned (incoming), rejected (outgoing)', () => {
    const missing = ivms101Payload({ senzaNomeBeneficiario: true });
    const incoming = evaluateTravelRule(facts({ ivms101: missing, richiesteInformazioni: 2 }));
    assert.equal(incoming.proposta, 'returned');
    assert.deepEqual(incoming.decisioni_ammesse, ['returned', 'rejected']);
    assert.equal(esito(incoming, 'richieste_ripetute'), 'violata');
    const outgoing = evaluateTravelRule(facts({ ivms101: missing, richiesteInformazioni: 2, direzione: 'in_uscita' }));
    assert.equal(outgoing.proposta, 'rejected');
    assert.deepEqual(outgoing.decisioni_ammesse, ['rejected']);
    assert.equal(evaluateTravelRule(facts({ ivms101: missing, richiesteInformazioni: 1 })).proposta, 'held');
  });

  it('self-hosted address above EUR 1,000: a signature of the transfer\'s own text by that address proves control', () => {
    const w = ethWallet(7);
    const base = facts({ tipo_wallet: 'self_hosted', indirizzo_originatore: w.indirizzo, importo_eur: 1000.01 });
    const none = evaluateTravelRule(base);
    assert.equal(none.proposta, 'held');
    assert.equal(esito(none, 'prova_controllo'), 'mancante');
    assert.deepEqual(none.informazioni_mancanti.map((m) => m.campo), ['prova_controllo']);
    assert.equal(none.regole.find((x) => x.regola === 'prova_controllo')!.articolo, 'art. 16(2)');

    const messaggio = travelRuleProofMessage('AZ1', 'TRR-000001', 'ETH', w.indirizzo);
    const ok = evaluateTravelRule({ ...base, prova_controllo: { messaggio, firma: w.sign(messaggio) } });
    assert.equal(esito(ok, 'prova_controllo'), 'rispettata');
    assert.equal(ok.proposta, 'approved');

    // Signed by another key, or over another transfer's text: no proof.
    const other = ethWallet(8);
    assert.match(evaluateTravelRule({ ...base, prova_controllo: { messaggio, firma: other.sign(messaggio) } }).regole.find((x) => x.regola === 'prova_controllo')!.messaggio, /prova non valida/);
    const otherText = travelRuleProofMessage('AZ1', 'TRR-000002', 'ETH', w.indirizzo);
    assert.equal(esito(evaluateTravelRule({ ...base, prova_controllo: { messaggio: otherText, firma: w.sign(otherText) } }), 'prova_controllo'), 'mancante');
    // At EUR 1,000 or below no proof is required; without a euro value the threshold is assumed passed.
    assert.equal(esito(evaluateTravelRule({ ...base, importo_eur: 1000 }), 'prova_controllo'), 'non_applicabile');
    assert.equal(esito(evaluateTravelRule({ ...base, importo_eur: null }), 'prova_controllo'), 'mancante');
    // Outgoing: the beneficiary's self-hosted address is the one to prove (art. 14(5)).
    const out = evaluateTravelRule(facts({ direzione: 'in_uscita', tipo_wallet: 'self_hosted', indirizzo_beneficiario: w.indirizzo, importo_eur: 5000 }));
    assert.equal(out.regole.find((x) => x.regola === 'prova_controllo')!.articolo, 'art. 14(5)');
    assert.match(out.regole.find((x) => x.regola === 'prova_controllo')!.messaggio, new RegExp(w.indirizzo));
  });

  it('a sanctions hit on a name or an address: rejected, nothing laxer allowed', () => {
    const nameHit: TravelRuleScreening = { ...clean, nomi: [{ ruolo: 'beneficiario', nome: 'Eric Badege', tipo: 'person', hits: [{ list_name: 'un_sc_sanctions', entry_id: 'un:CDi.001', entry_name: 'ERIC BADEGE', score: 0.97, alert: true }] }] };
    const r = evaluateTravelRule(facts({ screening: nameHit }));
    assert.equal(r.proposta, 'rejected');
    assert.deepEqual(r.decisioni_ammesse, ['rejected']);
    assert.match(r.regole.find((x) => x.regola === 'sanzioni_nomi')!.messaggio, /ERIC BADEGE/);
    // Below the match threshold a hit is shown for review but does not reject.
    const weak: TravelRuleScreening = { ...clean, nomi: [{ ...nameHit.nomi[0]!, hits: [{ ...nameHit.nomi[0]!.hits[0]!, score: 0.75, alert: false }] }] };
    assert.equal(evaluateTravelRule(facts({ screening: weak })).proposta, 'approved');
    const addrHit: TravelRuleScreening = { ...clean, indirizzi: [{ ruolo: 'originatore', indirizzo: '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c', hit: true, entries: [{ list_name: 'ofac_crypto', entry_id: 'ofac:42498', name: 'Garantex' }] }] };
    const a = evaluateTravelRule(facts({ screening: addrHit, ivms101: ivms101Payload({ senzaNomeBeneficiario: true }) }));
    assert.equal(a.proposta, 'rejected');
    assert.equal(esito(a, 'sanzioni_indirizzi'), 'violata');
  });

  it('not screened yet: held, with the screening named as what is missing', () => {
    const r = evaluateTravelRule(facts({ screening: null }));
    assert.equal(r.proposta, 'held');
    assert.equal(esito(r, 'sanzioni_nomi'), 'mancante');
  });
});
