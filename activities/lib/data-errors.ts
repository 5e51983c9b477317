import { ApplicationFailure } from '@temporalio/common';

export const INVALID_DATA_FAILURE = 'INVALID_DATA';

/**
 * SQLSTATE class 22 (data exception: text PostgreSQL cannot store, a value out of range, a
 * malformed uuid or date) and class 23 (integrity constraint violation: unique, foreign key,
 * not null, check) depend on the data, not on the moment: the same attempt fails the same way
 * every time. Activities handle the duplicates they expect themselves (idempotent writes use
 * ON CONFLICT or look first), so one that reaches here is data the activity cannot store.
 */
const isDataError = (err: unknown): err is Error & { code: string } => {
  const code = err instanceof Error ? (err as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code);
};

/** The database error as a non-retryable failure: the workflow sees it at once instead of retrying for ever. */
export function toNonRetryable(err: unknown): unknown {
  if (!isDataError(err)) return err;
  const pg = err as Error & { code: string; constraint?: string; column?: string; table?: string };
  return ApplicationFailure.create({
    type: INVALID_DATA_FAILURE,
    nonRetryable: true,
    message: `database refused the data (SQLSTATE ${pg.code}${pg.constraint ? `, constraint ${pg.constraint}` : ''}${pg.column ? `, column ${pg.column}` : ''})`,
    details: [{ sqlstate: pg.code, constraint: pg.constraint ?? null, table: pg.table ?? null, column: pg.column ?? null }],
    cause: err,
  });
}

type AnyFn = (...args: never[]) => Promise<unknown>;

/** Applied to every activity the worker registers (activities/index.ts), so no activity is left out. */
export function withDataErrorsNonRetryable<T extends Record<string, AnyFn>>(activities: T): T {
  const out: Record<string, AnyFn> = {};
  for (const [name, fn] of Object.entries(activities)) {
    out[name] = async (...args: never[]) => {
      try {
        return await fn(...args);
      } catch (err) {
        throw toNonRetryable(err);
      }
    };
  }
  return out as T;
}
