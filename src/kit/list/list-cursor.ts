import { z } from 'zod';
import { ValidationError } from '../../http/errors';
import type { SortKey, SortKeyType } from './list-definition';

/**
 * A page cursor: the sort it belongs to, which way it reads (after or before the row) and the
 * row's sort-key values as PostgreSQL prints them (text keeps a timestamp's microseconds, which
 * a JavaScript Date would lose and so skip rows). Base64url JSON: opaque to clients, not secret.
 */
export interface Cursor {
  sort: string; before: boolean; values: (string | null)[];
  /** The row's 1-based place in the list when the cursor was made: pages say "26–50 di 113" without counting rows before them. */
  position?: number | undefined;
}

const payload = z.object({
  s: z.string().max(100), d: z.enum(['a', 'b']), k: z.array(z.string().max(500).nullable()).min(1).max(8),
  n: z.number().int().min(1).max(1_000_000_000).optional(),
});

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:\d{2})?|Z)$/;
const valid: Record<SortKeyType, (v: string) => boolean> = {
  timestamp: (v) => TIMESTAMP.test(v) && !Number.isNaN(Date.parse(v.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00'))),
  text: () => true,
  integer: (v) => /^-?\d{1,18}$/.test(v),
  number: (v) => /^-?\d{1,30}(\.\d{1,30})?$/.test(v),
  uuid: (v) => z.uuid().safeParse(v).success,
  boolean: (v) => v === 'true' || v === 'false',
};

export const encodeCursor = (c: Cursor): string =>
  Buffer.from(JSON.stringify({ s: c.sort, d: c.before ? 'b' : 'a', k: c.values, ...(c.position ? { n: c.position } : {}) })).toString('base64url');

const invalid = (message: string) => new ValidationError([{ path: 'cursor', message }], 'Cursore di paginazione non valido');

/** The cursor of this sort, or a 422: a cursor never reaches SQL unchecked. */
export function decodeCursor(raw: string, sort: string, keys: readonly SortKey[]): Cursor {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalid('Cursore non leggibile: usa next_cursor o prev_cursor così come restituiti');
  }
  const p = payload.safeParse(json);
  if (!p.success) throw invalid('Cursore non leggibile: usa next_cursor o prev_cursor così come restituiti');
  if (p.data.s !== sort) throw invalid('Il cursore appartiene a un altro ordinamento: ricomincia dalla prima pagina');
  if (p.data.k.length !== keys.length) throw invalid('Cursore non valido per questo elenco');
  p.data.k.forEach((v, i) => {
    const key = keys[i]!;
    if (v === null ? !key.nullable : !valid[key.type](v)) throw invalid('Cursore non valido per questo elenco');
  });
  return { sort, before: p.data.d === 'b', values: p.data.k, position: p.data.n };
}
