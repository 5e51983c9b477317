import assert from 'node:assert/strict';
import { computeUbo } from '../../src/domains/verifications/structure/ubo.engine';
import { G, owners, rules } from './ubo.fixture';

describe('beneficial owners of trusts, listed companies and public bodies', () => {
  it('a trust as the customer: settlor, trustee (a company, through who controls it), protector, beneficiaries (art. 22, comma 5)', () => {
    const g = new G().root('T', 'trust').person('S', 'Z', 'Pr', 'B1', 'B2').entity('TrusteeCo')
      .rel('S', 'disponente', 'T').rel('TrusteeCo', 'trustee', 'T').holds('Z', 'TrusteeCo', 100)
      .rel('Pr', 'protettore', 'T').rel('B1', 'beneficiario', 'T').rel('B2', 'beneficiario', 'T');
    const r = computeUbo(g.graph, { soglia: 25 });
    assert.equal(r.italiano.criterio, 'trust');
    assert.deepEqual(owners(r.italiano), ['B1', 'B2', 'Pr', 'S', 'Z']);
    assert.deepEqual(rules(r.italiano, 'Z'), ['trust_trustee']);
    assert.deepEqual(r.italiano.titolari.find((o) => o.nodo_id === 'Z')!.motivi[0]!.percorsi[0]!.archi, ['Z>TrusteeCo', 'TrusteeCo-trustee>T']);
    assert.match(r.italiano.titolari[0]!.motivi[0]!.riferimento, /art\. 22, comma 5/);
    assert.deepEqual(owners(r.moltiplicativo), owners(r.italiano));
  });

  it('a trust holding 40% of the customer: its beneficiary is an owner by both methods, with the path through the trust', () => {
    const g = new G().root('R').person('S', 'B', 'P').entity('T', 'trust')
      .holds('T', 'R', 40).holds('P', 'R', 60).rel('S', 'disponente', 'T').rel('B', 'beneficiario', 'T');
    const r = computeUbo(g.graph, { soglia: 25 });
    assert.deepEqual(owners(r.italiano), ['B:40', 'P:60', 'S:40']);
    assert.deepEqual(r.italiano.titolari.find((o) => o.nodo_id === 'B')!.motivi[0]!.percorsi[0]!.archi, ['B-beneficiario>T', 'T>R']);
    assert.deepEqual(owners(r.moltiplicativo), ['B:40', 'P:60', 'S:40']);
    assert.deepEqual(rules(r.moltiplicativo, 'B'), ['trust_beneficiario']);
  });

  it('a public body as the customer: those with powers of representation, administration or direction', () => {
    const g = new G().root('Comune', 'ente_pubblico').person('Sindaco', 'Segretario').rel('Sindaco', 'rappresentante_legale', 'Comune').rel('Segretario', 'direttore', 'Comune');
    const r = computeUbo(g.graph, { soglia: 25 });
    assert.equal(r.italiano.criterio, 'residuale');
    assert.deepEqual(owners(r.italiano), ['Segretario', 'Sindaco']);
    assert.ok(r.italiano.note.some((n) => /ente pubblico/.test(n)));
  });

  it('a company 60% owned by a public body: the public stake reaches no person; a 40% private owner is the owner', () => {
    const g = new G().root('R').entity('Regione', 'ente_pubblico').person('P').holds('Regione', 'R', 60).holds('P', 'R', 40);
    const r = computeUbo(g.graph, { soglia: 25 });
    assert.deepEqual(owners(r.italiano), ['P:40']);
    assert.ok(r.italiano.note.some((n) => /Regione detiene il 60% di R: è un ente pubblico/.test(n)));
    assert.ok(r.moltiplicativo.note.some((n) => /Regione detiene effettivamente il 60%/.test(n)));
  });

  it('a widely held listed parent: control stops at the listed company, the residual criterion names the directors', () => {
    const g = new G().root('R').entity('Quotata', 'societa_quotata').person('A', 'B', 'Amm')
      .holds('Quotata', 'R', 51).holds('A', 'R', 24).holds('B', 'R', 25).rel('Amm', 'amministratore', 'R');
    const r = computeUbo(g.graph, { soglia: 25 });
    assert.equal(r.italiano.criterio, 'residuale');
    assert.deepEqual(owners(r.italiano), ['Amm']);
    assert.ok(r.italiano.note.some((n) => /società quotata che nessuna persona fisica registrata controlla/.test(n)));
  });

  it('a listed company whose controlling shareholder is recorded is looked through like any company', () => {
    const g = new G().root('R').entity('Quotata', 'societa_quotata').person('Famiglia').holds('Famiglia', 'Quotata', 52).holds('Quotata', 'R', 30);
    assert.deepEqual(owners(computeUbo(g.graph, { soglia: 25 }).italiano), ['Famiglia:30']);
  });

  it('a listed customer: the rules apply, with the note on art. 120 TUF disclosures', () => {
    const g = new G().root('Q', 'societa_quotata').person('P').holds('P', 'Q', 30);
    const r = computeUbo(g.graph, { soglia: 25 });
    assert.deepEqual(owners(r.italiano), ['P:30']);
    assert.ok(r.italiano.note.some((n) => /art\. 120 TUF/.test(n)));
  });

  it('warns about holdings above 100% and nodes not linked to the customer', () => {
    const g = new G().root('R').person('A', 'B', 'Sola').holds('A', 'R', 70).holds('B', 'R', 40);
    const r = computeUbo(g.graph, { soglia: 25 });
    assert.ok(r.avvertenze.some((w) => /superano il 100% \(110%\)/.test(w)));
    assert.ok(r.avvertenze.some((w) => /Sola/.test(w)));
  });
});
