import assert from 'node:assert/strict';
import { KeyTableBuilder } from '../../../src/domains/screening/lib/match/key-table';
import { normalizeName } from '../../../src/domains/screening/lib/match/normalize';
import { Screener } from '../../../src/domains/screening/lib/match/screener';
import { emptyEntry, type ListEntry } from '../../../src/domains/screening/lib/types';
import { allLists } from './lists-fixture';

describe('compact screener: what the typed arrays and bytes give back', function () {
  this.timeout(60_000);

  it('key table: values in the order added, each once, nothing for an unknown key', () => {
    const b = new KeyTableBuilder();
    b.add('dmuhamad', 7); b.add('eali', 1); b.add('dmuhamad', 3); b.add('dmuhamad', 7); b.add('dmuhamad', 9);
    const t = b.build();
    assert.deepEqual([...t.get('dmuhamad')], [7, 3, 9]);
    assert.deepEqual([...t.get('eali')], [1]);
    assert.equal(t.get('dmuhamed').length, 0);
    assert.equal(t.size, 2);
  });

  it('a hit carries its whole entry as given, alias, wallet and identifier included', () => {
    const person: ListEntry = {
      ...emptyEntry('test_list', 't:1', 'Person', 'Marcantonio Bragadin'),
      aliases: [{ name: 'Marco Bragadino', type: 'aka', quality: 'weak' }], birthDates: ['1523'], nationalities: ['it'],
      identifiers: [{ type: 'passport', value: 'YA1234567', country: 'it' }], cryptoAddresses: [{ currency: 'ETH', address: '0xAbC0000000000000000000000000000000000001' }],
      programs: ['TEST'], remarks: 'Città di Famagosta — «assedio»',
    };
    const vessel = { ...emptyEntry('test_list', 't:2', 'Vessel', 'Galea Grossa'), countries: ['ve'] };
    const screener = new Screener([vessel, person]);
    const hit = screener.best({ name: 'Marcantonio Bragadin' })!;
    assert.deepEqual(hit.entry, person);
    assert.notEqual(hit.entry, person, 'a copy: the screener keeps no entry object');
    assert.deepEqual(screener.screenWallet('0xabc0000000000000000000000000000000000001'), [person]);
    assert.deepEqual(screener.screenIdentifier('YA 1234567'), [person]);
    assert.deepEqual(screener.entry(0), vessel);
    // The qualifiers read from the compact store still lower the score.
    assert.ok(screener.best({ name: 'Marcantonio Bragadin', birthDate: '1980' })!.score < hit.score);
  });

  it('every name record reads back as the normalised name it was built from', async () => {
    const { entries } = await allLists();
    const screener = new Screener(entries.slice(0, 3000));
    assert.ok(screener.index.recordCount > 3000);
    for (let rid = 0; rid < screener.index.recordCount; rid += 7) {
      const r = screener.index.record(rid);
      const entry = entries[r.entry]!;
      assert.ok(r.name === entry.name || entry.aliases.some((a) => a.name === r.name), r.name);
      assert.deepEqual(r.norm, normalizeName(r.name), r.name);
    }
  });
});
