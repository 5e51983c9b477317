import { z } from 'zod';
import { sortNamesOf, type ListDefinition } from './list-definition';

/** Offsets are cheap only near the start; past this a list is read with its cursor. */
export const MAX_OFFSET = 1_000;

/** What every list accepts besides its own filters: sort, page size, offset (capped) and cursor. */
export function listParamsShape(def: Pick<ListDefinition, 'sorts' | 'defaultSort' | 'limit'>) {
  const sorts = sortNamesOf(def) as [string, ...string[]];
  return {
    sort: z.enum(sorts).optional().default(def.defaultSort),
    limit: z.coerce.number().int().min(1).max(def.limit.max).optional().default(def.limit.default),
    offset: z.coerce.number().int().min(0)
      .max(MAX_OFFSET, `Oltre ${MAX_OFFSET} elementi scorri l'elenco con il cursore (next_cursor)`).optional().default(0),
    /** Opaque: next_cursor or prev_cursor of an earlier answer, as given. */
    cursor: z.string().max(4_000).optional().or(z.literal('').transform(() => undefined)),
  };
}

export interface ListParams { sort: string; limit: number; offset: number; cursor?: string | undefined }

/** The answer of every list: the old fields (items, total, limit, offset) and the cursor fields. */
export const listResponse = <T extends z.ZodType>(item: T) => z.object({
  items: z.array(item),
  /** Exact when total_exact; otherwise a lower bound (the count stops at 10,000: "more than 10,000"). */
  total: z.number().int(),
  total_exact: z.boolean(),
  limit: z.number().int(),
  offset: z.number().int(),
  /** Pass as ?cursor= for the next page; null on the last page. */
  next_cursor: z.string().nullable(),
  /** Pass as ?cursor= for the previous page; null on the first page. */
  prev_cursor: z.string().nullable(),
});
