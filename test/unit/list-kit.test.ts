import assert from 'node:assert/strict';
import knexFactory from 'knex';
import { z } from 'zod';
import { ValidationError } from '../../src/http/errors';
import { defineList, listCountQuery, listPageQuery, listParamsShape, PLATFORM_SCOPE, tenantScope } from '../../src/kit/list';
import { encodeCursor } from '../../src/kit/list/list-cursor';

const db = knexFactory({ client: 'pg' });

const things = defineList<{ stato: string }>({
  name: 'things',
  table: 'things',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: () => ['*'],
  sorts: {
    created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }],
    seen_at: [{ column: 'seen_at', type: 'timestamp', nullable: true }, { column: 'id', type: 'uuid' }],
  },
  defaultSort: '-created_at',
  filters: { stato: { apply: (qb, v) => qb.where('stato', v), sample: 'open' } },
  limit: { default: 25, max: 200 },
});
const params = z.object({ stato: z.string().optional(), ...listParamsShape(things) });
const ID = '0b7f3c1e-8d4a-4f5e-9a2b-1c3d4e5f6a7b';
const cursor = (sort: string, k: (string | null)[], before = false) => encodeCursor({ sort, before, values: k });
const sqlOf = (q: Record<string, unknown>, scope = tenantScope('T1')) => listPageQuery(db, things, scope, params.parse(q)).toSQL();

describe('list kit', () => {
  it('puts the tenant predicate in the query, filters, orders by every key and reads one row more than the page', () => {
    const { sql, bindings } = sqlOf({ stato: 'open' });
    assert.match(sql, /where "cod_azienda" = \? and "stato" = \? order by "created_at" desc, "id" desc limit \?/);
    assert.deepEqual(bindings, ['T1', 'open', 26]);
  });

  it('counts at most 10,001 rows of the same filtered list, without order', () => {
    const { sql, bindings } = listCountQuery(db, things, tenantScope('T1'), params.parse({ stato: 'open', sort: 'seen_at' })).toSQL();
    assert.equal(sql, 'select count(*) as "n" from (select 1 from "things" where "cod_azienda" = ? and "stato" = ? limit ?) as "capped"');
    assert.deepEqual(bindings, ['T1', 'open', 10_001]);
  });

  it('continues after a cursor with one row-value comparison when no key may be null', () => {
    const { sql, bindings } = sqlOf({ cursor: cursor('-created_at', ['2026-01-01 10:00:00.123456+00', ID]) });
    assert.match(sql, /\("created_at", "id"\) < \(\?, \?\) order by "created_at" desc, "id" desc/);
    assert.deepEqual(bindings, ['T1', '2026-01-01 10:00:00.123456+00', ID, 26]);
    // Backwards: the other comparison, the other order (the page is reversed after reading).
    const back = sqlOf({ cursor: cursor('-created_at', ['2026-01-01 10:00:00+00', ID], true) });
    assert.match(back.sql, /\("created_at", "id"\) > \(\?, \?\) order by "created_at" asc, "id" asc/);
  });

  it('expands the comparison for a nullable key, nulls being the greatest value', () => {
    const after = sqlOf({ sort: 'seen_at', cursor: cursor('seen_at', ['2026-01-01 10:00:00+00', ID]) }).sql;
    assert.match(after, /\(\("seen_at" > \? or "seen_at" is null\)\) or \("seen_at" = \? and "id" > \?\)/);
    const fromNull = sqlOf({ sort: 'seen_at', cursor: cursor('seen_at', [null, ID]) }).sql;
    assert.match(fromNull, /\(\(false\) or \("seen_at" is null and "id" > \?\)\) and "seen_at" is null/);
    const descFromNull = sqlOf({ sort: '-seen_at', cursor: cursor('-seen_at', [null, ID]) }).sql;
    assert.match(descFromNull, /\(\("seen_at" is not null\) or \("seen_at" is null and "id" < \?\)\)/);
  });

  it('keeps nulls last in both directions for a key declared so, in the order and in the keyset', () => {
    const late = defineList({ ...things, name: 'late', sorts: { seen_at: [{ column: 'seen_at', type: 'timestamp', nullable: true, nulls: 'last' }, { column: 'id', type: 'uuid' }] }, defaultSort: 'seen_at' });
    const p = z.object(listParamsShape(late));
    const sql = (q: Record<string, unknown>) => listPageQuery(db, late, tenantScope('T1'), p.parse(q)).toSQL().sql;
    assert.match(sql({ sort: '-seen_at' }), /order by "seen_at" desc nulls last, "id" desc/);
    assert.match(sql({ sort: 'seen_at' }), /order by "seen_at" asc nulls last, "id" asc/);
    // After a dated row, descending: older rows, then the nulls.
    assert.match(sql({ sort: '-seen_at', cursor: cursor('-seen_at', ['2026-01-01 10:00:00+00', ID]) }), /\(\("seen_at" < \? or "seen_at" is null\)\) or \("seen_at" = \? and "id" < \?\)/);
    // Back from a null row, descending: every dated row comes before it (read ascending, nulls first).
    const back = sql({ sort: '-seen_at', cursor: cursor('-seen_at', [null, ID], true) });
    assert.match(back, /\(\("seen_at" is not null\) or \("seen_at" is null and "id" > \?\)\) order by "seen_at" asc nulls first, "id" asc/);
  });

  it('refuses a tampered cursor with a 422 on the cursor field', () => {
    const bad = [
      'garbage', Buffer.from('[1,2]').toString('base64url'),
      cursor('created_at', ['2026-01-01 10:00:00+00', ID]), // another sort
      cursor('-created_at', ['2026-01-01 10:00:00+00']), // too few keys
      cursor('-created_at', ['yesterday', ID]),
      cursor('-created_at', ['2026-02-31 25:00:00+00', ID]),
      cursor('-created_at', ['2026-01-01 10:00:00+00', 'not-a-uuid']),
      cursor('-created_at', [null, ID]), // created_at is never null
    ];
    for (const c of bad) {
      assert.throws(() => sqlOf({ cursor: c }), (e: unknown) => e instanceof ValidationError && e.status === 422 && e.errors[0]?.path === 'cursor', c);
    }
  });

  it('caps the offset with a message that points to the cursor, and accepts only declared sorts', () => {
    const deep = params.safeParse({ offset: '1001' });
    assert.equal(deep.success, false);
    assert.match(deep.error!.issues[0]!.message, /cursore/);
    assert.equal(params.safeParse({ offset: '1000' }).success, true);
    assert.equal(params.safeParse({ sort: 'stato' }).success, false);
  });

  it('reads a tenant list only in a tenant, and a platform-wide list without any tenant predicate', () => {
    assert.throws(() => sqlOf({}, PLATFORM_SCOPE), /not read platform-wide/);
    const platform = defineList({ ...things, name: 'all-things', scopes: ['platform'] });
    const { sql } = listPageQuery(db, platform, PLATFORM_SCOPE, params.parse({})).toSQL();
    assert.doesNotMatch(sql, /cod_azienda/);
  });
});
