import assert from 'node:assert/strict';
import { GroupCommit } from '../../src/kit/group-commit';

/** A write whose transactions the test ends by hand: each call waits until `commit()`. */
function heldWrites(fail: (items: readonly string[]) => boolean = () => false) {
  const calls: string[][] = [];
  const open: (() => void)[] = [];
  const write = async (_key: string, items: readonly string[]) => {
    calls.push([...items]);
    await new Promise<void>((r) => open.push(r));
    if (fail(items)) throw new Error(`bad batch ${items.join(',')}`);
    return items.map((i) => `ok:${i}`);
  };
  // Lets every pending write finish, as often as new ones start (the fallback starts more).
  const commitAll = async () => {
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setImmediate(r));
      open.splice(0).forEach((r) => r());
    }
  };
  return { calls, write, commitAll };
}

describe('group commit (src/kit/group-commit.ts)', () => {
  it('writes a request at once when a lane is free, and those arriving meanwhile together in the next transaction, each answered its own result', async () => {
    const w = heldWrites();
    const g = new GroupCommit(w.write, { maxSize: 100, sizeOf: () => 1, lanes: 1 });
    const first = g.submit('t', 'a');
    const rest = ['b', 'c', 'd'].map((x) => g.submit('t', x));
    await w.commitAll();
    assert.deepEqual(await Promise.all([first, ...rest]), ['ok:a', 'ok:b', 'ok:c', 'ok:d']);
    assert.deepEqual(w.calls, [['a'], ['b', 'c', 'd']]);
    assert.deepEqual(g.stats, { batches: 2, requests: 4, fallbacks: 0 });
  });

  it('keeps keys apart and a batch within its size: a request larger than what is left goes into the next one', async () => {
    const w = heldWrites();
    const g = new GroupCommit(w.write, { maxSize: 5, sizeOf: (s: string) => s.length, lanes: 1 });
    const all = [g.submit('t1', 'x'), g.submit('t1', 'aa'), g.submit('t1', 'bbb'), g.submit('t1', 'cccc'), g.submit('t2', 'y')];
    await w.commitAll();
    await Promise.all(all);
    assert.deepEqual(w.calls, [['x'], ['y'], ['aa', 'bbb'], ['cccc']]);
  });

  it('writes each request of a failed batch on its own: the bad one fails alone, the others succeed', async () => {
    const w = heldWrites((items) => items.includes('bad'));
    const g = new GroupCommit(w.write, { maxSize: 100, sizeOf: () => 1, lanes: 1 });
    const first = g.submit('t', 'a');
    const [b, bad, c] = ['b', 'bad', 'c'].map((x) => g.submit('t', x).then((v) => ({ v }), (e: Error) => ({ e: e.message })));
    await w.commitAll();
    assert.equal(await first, 'ok:a');
    assert.deepEqual(await Promise.all([b, bad, c]), [{ v: 'ok:b' }, { e: 'bad batch bad' }, { v: 'ok:c' }]);
    assert.deepEqual(w.calls.slice(0, 2), [['a'], ['b', 'bad', 'c']]);
    assert.deepEqual(w.calls.slice(2).map((c) => c.join()).sort(), ['b', 'bad', 'c']);
    assert.equal(g.stats.fallbacks, 1);
  });
});
