import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { AREAS } from '../../src/areas';
import { addYearsIso, retentionDue, retentionOf } from '../../src/domains/spine';

describe('document spine: retention rule (art. 31 d.lgs. 231/2007)', () => {
  it('is open while any relationship of the customer is open', () => {
    assert.deepEqual(retentionOf({ codAnagrafe: 'ANA-1', relationships: ['2012-05-31', null, null], documentDate: '2020-01-10' }), { stato: 'aperta', rapporti_aperti: 2 });
    assert.equal(retentionDue({ stato: 'aperta', rapporti_aperti: 1 }, '2099-01-01'), false);
  });

  it('runs ten years from the end of the last relationship, not the first', () => {
    const r = retentionOf({ codAnagrafe: 'ANA-1', relationships: ['2012-05-31', '2015-11-30', '2009-01-15'], documentDate: '2008-03-01' });
    assert.deepEqual(r, { stato: 'determinata', fino: '2025-11-30', base: 'fine_rapporti', da: '2015-11-30' });
    assert.equal(retentionDue(r, '2025-11-29'), false);
    assert.equal(retentionDue(r, '2025-11-30'), true, 'due on the day itself');
  });

  it('counts from the document\'s own date for no customer or a customer without relationships', () => {
    assert.deepEqual(retentionOf({ codAnagrafe: null, relationships: [], documentDate: '2021-07-04' }), { stato: 'determinata', fino: '2031-07-04', base: 'data_documento', da: '2021-07-04' });
    assert.deepEqual(retentionOf({ codAnagrafe: 'ANA-2', relationships: [], documentDate: '2021-07-04' }).stato, 'determinata');
  });

  it('turns 29 February into 28 February, as PostgreSQL\'s interval does', () => {
    assert.equal(addYearsIso('2024-02-29', 10), '2034-02-28');
    assert.equal(addYearsIso('2020-02-29', 8), '2028-02-29');
    assert.equal(addYearsIso('2015-12-31', 10), '2025-12-31');
  });

  it('has a source for every kind the migration indexes, each kind declared once', () => {
    const sources = AREAS.flatMap((a) => a.documentSources ?? []).map((s) => s.tipo);
    assert.equal(new Set(sources).size, sources.length, `duplicate kinds: ${sources.join(', ')}`);
    const migration = readFileSync(new URL('../../migrations/20261218000100_create_document_spine.ts', import.meta.url), 'utf8');
    const indexed = [...migration.matchAll(/new\.cod_azienda, '([a-z_]+)'/g)].map((m) => m[1]!);
    assert.ok(indexed.length >= 6);
    for (const k of [...indexed, 'caricamento']) assert.ok(sources.includes(k), `no documentSources entry for ${k}`);
  });
});
