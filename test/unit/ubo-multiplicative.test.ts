import assert from 'node:assert/strict';
import { computeUbo } from '../../src/domains/verifications/structure/ubo.engine';
import { Fraction, solveExact } from '../../src/domains/verifications/structure/fraction';
import { diffIds, G, owners } from './ubo.fixture';

describe('beneficial owners, multiplicative method with cross-holdings solved exactly', () => {
  it('a cycle R ⇄ X is summed as a geometric series, not cut: P 15/22, Q 7/22, together 100%', () => {
    // P holds 60% of R, X holds 40% of R, R holds 30% of X, Q holds 70% of X.
    // x_R = 1 + 30%·x_X, x_X = 40%·x_R → x_R = 1/(1 − 12%) = 25/22; P = 60%·25/22 = 15/22; Q = 70%·40%·25/22 = 7/22.
    // Cutting the cycle would give P 60% and Q 28% (12% lost).
    const g = new G().root('R').person('P', 'Q').entity('X')
      .holds('P', 'R', 60).holds('X', 'R', 40).holds('R', 'X', 30).holds('Q', 'X', 70);
    const r = computeUbo(g.graph, { soglia: 25 });
    const p = r.moltiplicativo.titolari.find((o) => o.nodo_id === 'P')!;
    const q = r.moltiplicativo.titolari.find((o) => o.nodo_id === 'Q')!;
    assert.equal(p.motivi[0]!.frazione, '15/22');
    assert.equal(q.motivi[0]!.frazione, '7/22');
    assert.equal(p.percentuale, 68.1818);
    assert.equal(q.percentuale, 31.8182);
    assert.match(p.motivi[0]!.spiegazione, /percorsi semplici 60% \+ percorsi attraverso le partecipazioni incrociate 8,1818% = 68,1818% \(15\/22\)/);
    assert.deepEqual(q.motivi[0]!.percorsi.map((x) => x.archi), [['Q>X', 'X>R']]);
    assert.equal(q.motivi[0]!.percorsi[0]!.frazione, '7/25');
    assert.ok(r.moltiplicativo.note.some((n) => /Partecipazione incrociata R → X → R \(12%\)/.test(n)));
    // Italian: P 60% directly; Q controls X (70%), X's 40% counts in full. Same people, different figures.
    assert.deepEqual(owners(r.italiano), ['P:60', 'Q:40']);
    assert.deepEqual(diffIds(r), ['P', 'Q']);
    assert.match(r.differenze.find((d) => d.nodo_id === 'Q')!.spiegazione, /entrambi i metodi con figure diverse/);
  });

  it('a three-level structure with a cycle between the upper levels', () => {
    // R ← A 50%, R ← B 50%; A ← B 20%, B ← A 10% (cross-holding between A and B); A ← P 80%; B ← Q 90%.
    // x_A = 50% + 10%·x_B, x_B = 50% + 20%·x_A → x_A = 0.55/0.98 = 55/98, x_B = 0.60/0.98 = 30/49.
    // P = 80%·55/98 = 22/49 (44.898%), Q = 90%·30/49 = 27/49 (55.102%); P + Q = 100%.
    const g = new G().root('R').person('P', 'Q').entity('A').entity('B')
      .holds('A', 'R', 50).holds('B', 'R', 50).holds('B', 'A', 20).holds('A', 'B', 10).holds('P', 'A', 80).holds('Q', 'B', 90);
    const r = computeUbo(g.graph, { soglia: 25 });
    assert.equal(r.quote.find((x) => x.nodo_id === 'P')!.moltiplicativo_frazione, '22/49');
    assert.equal(r.quote.find((x) => x.nodo_id === 'Q')!.moltiplicativo_frazione, '27/49');
    assert.deepEqual(owners(r.moltiplicativo), ['P:44.898', 'Q:55.102']);
    // Italian: P controls A (80%), A holds 50% of R → 50%; Q controls B → 50%.
    assert.deepEqual(owners(r.italiano), ['P:50', 'Q:50']);
    const paths = r.moltiplicativo.titolari.find((o) => o.nodo_id === 'P')!.motivi[0]!.percorsi.map((x) => x.archi.join(' '));
    assert.deepEqual(paths.sort(), ['P>A A>B B>R', 'P>A A>R']);
  });

  it('companies owning each other entirely with no outside owner: no effective share, said so', () => {
    const g = new G().root('R').entity('X').entity('Y').holds('X', 'Y', 100).holds('Y', 'X', 100).holds('X', 'R', 100);
    const r = computeUbo(g.graph, { soglia: 25 });
    assert.deepEqual(owners(r.moltiplicativo), []);
    assert.ok(r.moltiplicativo.note.some((n) => /si possiedono interamente a vicenda/.test(n)));
  });

  it('exact arithmetic: fractions normalise and Gauss–Jordan solves a small system', () => {
    assert.equal(Fraction.fromPercent(25.5).toString(), '51/200');
    assert.equal(new Fraction(6n, -4n).toString(), '-3/2');
    const f = (n: number) => new Fraction(BigInt(n));
    // 2x + y = 5, x − y = 1 → x = 2, y = 1.
    assert.deepEqual(solveExact([[f(2), f(1)], [f(1), f(-1)]], [f(5), f(1)])!.map(String), ['2', '1']);
    assert.equal(solveExact([[f(1), f(1)], [f(1), f(1)]], [f(1), f(2)]), undefined);
  });
});
