import assert from 'node:assert/strict';
import { computeUbo } from '../../src/domains/verifications/structure/ubo.engine';
import { G, owners } from './ubo.fixture';

/**
 * Art. 20, comma 5: with nobody owning or controlling the customer, its owners are the persons with
 * powers of legal representation, administration or direction. A structure that records none of
 * them gets a structured warning naming who lacks them, not just an empty list.
 */
describe('beneficial owners: the warning when the residual criterion has no representatives', () => {
  it('nobody qualifies and no representative is recorded: a warning naming the customer with its codes', () => {
    const g = new G().root('R').person('A', 'B').holds('A', 'R', 20).holds('B', 'R', 20);
    g.nodes[0] = { ...g.nodes[0]!, denominazione: 'Cliente S.p.A.', cod_anagrafe: 'ANA-000123', codice_fiscale: '01234567890' };
    const r = computeUbo(g.graph, { soglia: 25 });
    assert.equal(r.italiano.criterio, 'nessuno');
    assert.deepEqual(r.italiano.titolari, []);
    assert.equal(r.avvisi!.length, 1);
    const w = r.avvisi![0]!;
    assert.equal(w.codice, 'rappresentanti_mancanti');
    assert.deepEqual(w.metodi, ['italiano', 'moltiplicativo']);
    assert.match(w.riferimento, /art\. 20, comma 5/);
    assert.match(w.messaggio, /Nessuna persona fisica è titolare effettivo per proprietà o per controllo: .*art\. 20, comma 5/);
    assert.deepEqual(w.soggetti.map((s) => [s.nodo_id, s.cliente, s.cod_anagrafe, s.codice_fiscale]), [['R', true, 'ANA-000123', '01234567890']]);
    assert.equal(w.soggetti[0]!.messaggio, 'Cliente S.p.A. (anagrafe ANA-000123, codice fiscale 01234567890): nessun legale rappresentante, amministratore o direttore registrato nella struttura.');
    assert.ok(!r.italiano.note.some((n) => /Nessun titolare effettivo individuabile/.test(n)), 'the warning replaces the old note');
  });

  it('with a legal representative: the fallback names them, no warning', () => {
    const g = new G().root('R').person('A', 'B', 'Legale').holds('A', 'R', 20).holds('B', 'R', 20).rel('Legale', 'rappresentante_legale', 'R');
    const r = computeUbo(g.graph, { soglia: 25 });
    assert.equal(r.italiano.criterio, 'residuale');
    assert.deepEqual(owners(r.italiano), ['Legale']);
    assert.deepEqual(owners(r.moltiplicativo), ['Legale']);
    assert.deepEqual(r.avvisi, []);
  });

  it('owners by ownership: missing representatives do not matter to the result, no warning', () => {
    const r = computeUbo(new G().root('R').person('A').holds('A', 'R', 30).graph, { soglia: 25 });
    assert.deepEqual(owners(r.italiano), ['A:30']);
    assert.deepEqual(r.avvisi, []);
  });

  it('a corporate administrator without a legal representative is named (the fallback reads it through them), the customer is not', () => {
    const g = new G().root('R').entity('AmmCo').entity('Holding').person('X', 'Y')
      .rel('AmmCo', 'amministratore', 'R').rel('AmmCo', 'rappresentante_legale', 'R').holds('Holding', 'R', 100).rel('X', 'amministratore', 'Holding').holds('Y', 'Holding', 40);
    const r = computeUbo(g.graph, { soglia: 25 });
    assert.deepEqual(owners(r.italiano), []);
    const w = r.avvisi![0]!;
    assert.deepEqual(w.soggetti.map((s) => [s.nodo_id, s.cliente, s.ruoli]), [['AmmCo', false, ['amministratore', 'rappresentante_legale']]],
      'the holding\'s administrator is not the customer\'s: only the entities whose representatives comma 5 uses');
    assert.equal(w.soggetti[0]!.messaggio, 'AmmCo, amministratore e legale rappresentante di R: nessun legale rappresentante persona fisica registrato nella struttura.');
    assert.match(w.messaggio, /non ce n'è nessuna/);
  });

  it('two corporate administrators, one represented: owners found, the other still named', () => {
    const g = new G().root('R').entity('Amm1').entity('Amm2').person('L1')
      .rel('Amm1', 'amministratore', 'R').rel('Amm2', 'amministratore', 'R').rel('L1', 'rappresentante_legale', 'Amm1');
    const r = computeUbo(g.graph, { soglia: 25 });
    assert.deepEqual(owners(r.italiano), ['L1']);
    assert.deepEqual(r.avvisi![0]!.soggetti.map((s) => s.nodo_id), ['Amm2']);
    assert.match(r.avvisi![0]!.messaggio, /ne manca una parte/);
  });

  it('only the Italian method falls back: the warning says so', () => {
    // P holds 66,6667% of A's capital with 40% of its votes: no control, so nothing by the Italian method; 25,0000125% by the multiplicative.
    const g = new G().root('R').entity('A').person('P').holds('P', 'A', 66.6667, 40).holds('A', 'R', 37.5);
    const r = computeUbo(g.graph, { soglia: 25 });
    assert.deepEqual(owners(r.moltiplicativo), ['P:25']);
    assert.equal(r.italiano.criterio, 'nessuno');
    assert.deepEqual(r.avvisi![0]!.metodi, ['italiano']);
    assert.match(r.avvisi![0]!.messaggio, /per proprietà o per controllo con il metodo italiano/);
  });

  it('a public body with nobody recorded is named; a trust customer gets its own note, not this warning', () => {
    const pa = computeUbo(new G().root('Comune', 'ente_pubblico').graph, { soglia: 25 });
    assert.deepEqual(pa.avvisi![0]!.soggetti.map((s) => [s.nodo_id, s.tipo]), [['Comune', 'ente_pubblico']]);
    assert.match(pa.avvisi![0]!.messaggio, /Comune è un ente pubblico/);
    const t = computeUbo(new G().root('T', 'trust').graph, { soglia: 25 });
    assert.deepEqual(t.avvisi, []);
    assert.ok(t.italiano.note.some((n) => /disponenti, trustee, guardiani, beneficiari/.test(n)));
  });
});
