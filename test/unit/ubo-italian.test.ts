import assert from 'node:assert/strict';
import { computeUbo } from '../../src/domains/verifications/structure/ubo.engine';
import { UboInputError } from '../../src/domains/verifications/structure/ubo.types';
import { diffIds, G, owners, rules } from './ubo.fixture';

describe('beneficial owners, Italian method (art. 20 d.lgs. 231/2007) on hand-computed structures', () => {
  it('direct ownership: above 25% only, exactly 25% is not "superiore"; both methods agree', () => {
    const g = new G().root('R').person('P1', 'P2', 'P3').holds('P1', 'R', 40).holds('P2', 'R', 35).holds('P3', 'R', 25);
    const r = computeUbo(g.graph, { soglia: 25 });
    assert.equal(r.italiano.criterio, 'proprieta');
    assert.deepEqual(owners(r.italiano), ['P1:40', 'P2:35']);
    assert.deepEqual(rules(r.italiano, 'P1'), ['proprieta_diretta']);
    assert.match(r.italiano.titolari[0]!.motivi[0]!.riferimento, /art\. 20, comma 2, lett\. a\)/);
    assert.deepEqual(owners(r.moltiplicativo), ['P1:40', 'P2:35']);
    assert.deepEqual(r.differenze, []);
    assert.deepEqual(r.italiano.titolari[0]!.motivi[0]!.percorsi[0]!.archi, ['P1>R']);
  });

  it('the threshold is configurable: 10% takes P3 in, 35% leaves only P1', () => {
    const g = new G().root('R').person('P1', 'P2', 'P3').holds('P1', 'R', 40).holds('P2', 'R', 35).holds('P3', 'R', 25);
    assert.deepEqual(owners(computeUbo(g.graph, { soglia: 10 }).italiano), ['P1:40', 'P2:35', 'P3:25']);
    assert.deepEqual(owners(computeUbo(g.graph, { soglia: 35 }).italiano), ['P1:40']);
    assert.throws(() => computeUbo(g.graph, { soglia: 0 }), UboInputError);
    assert.throws(() => computeUbo(g.graph, { soglia: 100 }), UboInputError);
  });

  it('indirect ownership through the control chain: the controlled company\'s stake counts in full, not the product', () => {
    // Rossi controls Alfa (60%), Alfa holds 40% of R: Italian 40% (owner), multiplicative 60% × 40% = 24% (not).
    // Gamma holds 60% of R but nobody controls it (45/45/10): Italian attributes it to nobody; multiplicative gives
    // Verdi and Neri 45% × 60% = 27% each (owners), Bianchi 40% × 40% + 10% × 60% = 22%.
    const g = new G().root('R').person('Rossi', 'Bianchi', 'Verdi', 'Neri').entity('Alfa').entity('Gamma')
      .holds('Rossi', 'Alfa', 60).holds('Bianchi', 'Alfa', 40).holds('Alfa', 'R', 40)
      .holds('Verdi', 'Gamma', 45).holds('Neri', 'Gamma', 45).holds('Bianchi', 'Gamma', 10).holds('Gamma', 'R', 60);
    const r = computeUbo(g.graph, { soglia: 25 });
    assert.deepEqual(owners(r.italiano), ['Rossi:40']);
    assert.deepEqual(rules(r.italiano, 'Rossi'), ['proprieta_indiretta']);
    const p = r.italiano.titolari[0]!.motivi[0]!.percorsi[0]!;
    assert.deepEqual(p.archi, ['Rossi>Alfa', 'Alfa>R']);
    assert.deepEqual(p.nodi, ['Rossi', 'Alfa', 'R']);
    assert.match(p.testo, /Rossi controlla Alfa con la maggioranza dei voti \(60%\); Alfa detiene il 40% di R/);
    assert.ok(r.italiano.note.some((n) => /Gamma detiene il 60% di R ma nessuna persona fisica la controlla/.test(n)));
    assert.deepEqual(owners(r.moltiplicativo), ['Neri:27', 'Verdi:27']);
    assert.deepEqual(diffIds(r), ['Neri', 'Rossi', 'Verdi']);
    const share = (id: string) => r.quote.find((q) => q.nodo_id === id)!;
    assert.deepEqual([share('Rossi').italiano, share('Rossi').moltiplicativo], [40, 24]);
    assert.deepEqual([share('Bianchi').italiano, share('Bianchi').moltiplicativo], [0, 22]);
    assert.match(r.differenze.find((d) => d.nodo_id === 'Rossi')!.spiegazione, /solo per il metodo italiano.*24%/);
    assert.match(r.differenze.find((d) => d.nodo_id === 'Verdi')!.spiegazione, /solo per il metodo moltiplicativo.*non controlla/);
  });

  it('the votes of controlled companies count as the person\'s own (art. 2359, comma 2 c.c.)', () => {
    // P: 30% of H directly + 25% through S (P holds 60% of S) = 55% of H's votes: P controls H, H holds 30% of R.
    const g = new G().root('R').person('P', 'Q').entity('H').entity('S')
      .holds('P', 'S', 60).holds('P', 'H', 30).holds('S', 'H', 25).holds('Q', 'H', 45).holds('H', 'R', 30).holds('Q', 'R', 70);
    const r = computeUbo(g.graph, { soglia: 25 });
    assert.deepEqual(owners(r.italiano), ['P:30', 'Q:70']);
    const p = r.italiano.titolari.find((o) => o.nodo_id === 'P')!.motivi[0]!.percorsi[0]!;
    assert.deepEqual(p.archi, ['P>S', 'P>H', 'S>H', 'H>R']);
    assert.match(p.testo, /P controlla H con la maggioranza dei voti \(55% = 30% di P \+ 25% di S\)/);
    // Multiplicative: 30% × 30% + 60% × 25% × 30% = 13.5%.
    assert.equal(r.quote.find((q) => q.nodo_id === 'P')!.moltiplicativo, 13.5);
  });

  it('direct and indirect stakes add up: 15% directly + 15% through a controlled company = 30%', () => {
    const g = new G().root('R').person('P').entity('X').holds('P', 'R', 15).holds('P', 'X', 51).holds('X', 'R', 15);
    const r = computeUbo(g.graph, { soglia: 25 });
    assert.deepEqual(owners(r.italiano), ['P:30']);
    assert.equal(r.italiano.titolari[0]!.motivi[0]!.percorsi.length, 2);
    assert.deepEqual(owners(r.moltiplicativo), []);
    assert.equal(r.moltiplicativo.criterio, 'nessuno');
  });

  it('control without ownership: votes, dominant influence through a chain, contract (comma 3), only when ownership finds nobody', () => {
    const votes = new G().root('R').person('A', 'B', 'C', 'D', 'E').holds('A', 'R', 20, 60).holds('B', 'R', 20, 10)
      .holds('C', 'R', 20, 10).holds('D', 'R', 20, 10).holds('E', 'R', 20, 10);
    const rv = computeUbo(votes.graph, { soglia: 25 });
    assert.equal(rv.italiano.criterio, 'controllo');
    assert.deepEqual(owners(rv.italiano), ['A']);
    assert.deepEqual(rules(rv.italiano, 'A'), ['controllo_maggioranza_voti']);
    assert.match(rv.italiano.titolari[0]!.motivi[0]!.riferimento, /comma 3, lett\. a\)/);

    const influence = new G().root('R').person('A', 'B', 'C', 'D', 'P').entity('H')
      .holds('A', 'R', 20).holds('B', 'R', 20).holds('C', 'R', 20).holds('D', 'R', 20).holds('H', 'R', 20)
      .holds('P', 'H', 55).rel('H', 'influenza_dominante', 'R');
    const ri = computeUbo(influence.graph, { soglia: 25 });
    assert.deepEqual(owners(ri.italiano), ['P']);
    assert.deepEqual(rules(ri.italiano, 'P'), ['influenza_dominante']);
    assert.deepEqual(ri.italiano.titolari[0]!.motivi[0]!.percorsi[0]!.archi, ['P>H', 'H-influenza_dominante>R']);

    const contract = new G().root('R').person('A', 'K').holds('A', 'R', 25).rel('K', 'controllo_contrattuale', 'R');
    assert.deepEqual(owners(computeUbo(contract.graph, { soglia: 25 }).italiano), ['K']);
    // With an owner above the threshold the control tier is not reached.
    const both = new G().root('R').person('A', 'K').holds('A', 'R', 30).rel('K', 'controllo_contrattuale', 'R');
    assert.deepEqual(owners(computeUbo(both.graph, { soglia: 25 }).italiano), ['A:30']);
  });

  it('the fallback to legal representatives, administrators and directors (comma 5), a corporate administrator through its representative', () => {
    const g = new G().root('R').person('A', 'B', 'C', 'D', 'E', 'Amm', 'Leg', 'Dir', 'M').entity('AdminCo')
      .holds('A', 'R', 20).holds('B', 'R', 20).holds('C', 'R', 20).holds('D', 'R', 20).holds('E', 'R', 20)
      .rel('Amm', 'amministratore', 'R').rel('Leg', 'rappresentante_legale', 'R').rel('Dir', 'direttore', 'R')
      .rel('AdminCo', 'amministratore', 'R').rel('M', 'rappresentante_legale', 'AdminCo');
    const r = computeUbo(g.graph, { soglia: 25 });
    assert.equal(r.italiano.criterio, 'residuale');
    assert.deepEqual(owners(r.italiano), ['Amm', 'Dir', 'Leg', 'M']);
    assert.deepEqual(rules(r.italiano, 'M'), ['amministratore']);
    assert.deepEqual(r.italiano.titolari.find((o) => o.nodo_id === 'M')!.motivi[0]!.percorsi[0]!.archi, ['M-rappresentante_legale>AdminCo', 'AdminCo-amministratore>R']);
    assert.equal(r.moltiplicativo.criterio, 'residuale');
  });

  it('nobody at all: the result says so and what to record', () => {
    const r = computeUbo(new G().root('R').person('A').holds('A', 'R', 10).graph, { soglia: 25 });
    assert.equal(r.italiano.criterio, 'nessuno');
    assert.ok(r.italiano.note.some((n) => /comma 5/.test(n)));
  });

  it('refuses a structure without exactly one root', () => {
    assert.throws(() => computeUbo(new G().person('A').graph, { soglia: 25 }), UboInputError);
    assert.throws(() => computeUbo(new G().root('R').root('S').graph, { soglia: 25 }), UboInputError);
  });
});
