import assert from 'node:assert/strict';
import { contributionDiff, countMove, emptyRiepilogo, mergeRiepilogo } from '../../src/domains/risk/runs/runs.diff';
import { matrixView } from '../../src/domains/risk/runs/runs.pages';

const c = (codice: string, punti: number, nome = `Regola ${codice}`) => ({ codice, nome, punti });

describe('risk batch: the dry run\'s contribution diff and summary', () => {
  it('keeps only the rules whose contribution differs, the largest change first', () => {
    const diff = contributionDiff(
      [c('pep', 30), c('societa', 10), c('contanti', 10), c('remoto', 5)],
      [c('pep', 30), c('societa', 25), c('volume', 4), c('remoto', 5, 'Nome nuovo')],
    );
    assert.deepEqual(diff, [
      { codice: 'societa', nome: 'Regola societa', prima: 10, dopo: 25 },
      { codice: 'contanti', nome: 'Regola contanti', prima: 10, dopo: null },
      { codice: 'volume', nome: 'Regola volume', prima: null, dopo: 4 },
    ]);
  });

  it('treats a customer never scored as having no contribution, and equal sets as no difference', () => {
    assert.deepEqual(contributionDiff(null, [c('pep', 30)]), [{ codice: 'pep', nome: 'Regola pep', prima: null, dopo: 30 }]);
    assert.deepEqual(contributionDiff([c('a', 3), c('b', -2)], [c('b', -2), c('a', 3)]), []);
    assert.deepEqual(contributionDiff([], []), []);
  });

  it('names a rule by its new name, and by its old one when it no longer fires; ties by code', () => {
    const diff = contributionDiff([c('b', 5, 'Vecchio B'), c('a', 5, 'Vecchio A')], [c('a', 10, 'Nuovo A'), c('c', 5, 'Nuovo C')]);
    assert.deepEqual(diff.map((d) => [d.codice, d.nome]), [['a', 'Nuovo A'], ['b', 'Vecchio B'], ['c', 'Nuovo C']]);
  });

  it('counts moves by class before and after, the from→to matrix, ups and downs; merges batches', () => {
    const a = emptyRiepilogo();
    countMove(a, 'basso', 'basso');
    countMove(a, 'basso', 'alto');
    countMove(a, 'alto', 'medio');
    const b = emptyRiepilogo();
    countMove(b, null, 'medio');
    countMove(b, 'basso', 'alto');
    const r = mergeRiepilogo(a, b);
    assert.deepEqual(r.prima, { basso: 3, alto: 1, nessuna: 1 });
    assert.deepEqual(r.dopo, { basso: 1, alto: 2, medio: 2 });
    assert.deepEqual(r.matrice, { basso: { basso: 1, alto: 2 }, alto: { medio: 1 }, nessuna: { medio: 1 } });
    assert.equal(r.salite, 3);
    assert.equal(r.discese, 1);
    assert.equal(r.valutazioni_avviate, undefined);
  });

  it('draws the 4×4 matrix, with a row for customers without a class only when there are some', () => {
    const r = emptyRiepilogo();
    countMove(r, 'medio', 'alto');
    const m = matrixView(r);
    assert.deepEqual(m.rows.map((x) => x.key), ['basso', 'medio', 'medio_alto', 'alto']);
    assert.deepEqual(m.rows[1]!.cells.map((x) => x.n), [0, 0, 0, 1]);
    assert.deepEqual(m.totals, [0, 0, 0, 1]);
    countMove(r, null, 'basso');
    assert.deepEqual(matrixView(r).rows.map((x) => x.key), ['nessuna', 'basso', 'medio', 'medio_alto', 'alto']);
    assert.equal(matrixView(r).rows[1]!.cells[0]!.same, true);
    assert.equal(matrixView(r).rows[0]!.cells.some((x) => x.same), false);
  });
});
