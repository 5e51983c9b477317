import type Router from '@koa/router';
import type Koa from 'koa';
import type { AppState } from './context';
import { ValidationError, type FieldError } from './errors';

/**
 * Text PostgreSQL cannot store: the NUL character (text and jsonb refuse it) and lone UTF-16
 * surrogates (they have no UTF-8 encoding). One rule for every way input arrives, applied
 * before any handler, so no such text reaches a query or a workflow.
 */
// eslint-disable-next-line no-control-regex -- finding the NUL character is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_MESSAGE = 'Contiene caratteri non ammessi (carattere nullo o testo non codificabile)';

export const isStorableText = (s: string) => !UNSTORABLE.test(s);

/** Every string in the value (object keys too, since JSON objects are stored as they come), with its path. */
export function unstorableFields(value: unknown, path: string[] = [], out: FieldError[] = []): FieldError[] {
  const at = (p: string[]) => p.join('.') || '_form';
  if (typeof value === 'string') {
    if (!isStorableText(value)) out.push({ path: at(path), message: UNSTORABLE_TEXT_MESSAGE });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => unstorableFields(v, [...path, String(i)], out));
  } else if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (!isStorableText(k)) out.push({ path: at([...path, k]), message: UNSTORABLE_TEXT_MESSAGE });
      else unstorableFields(v, [...path, k], out);
    }
  }
  return out;
}

/** Throws the 422 that names each field; `prefix` places the fields (query., a form's own names...). */
export function assertStorable(value: unknown, prefix: string[] = []): void {
  const errors = unstorableFields(value, prefix);
  if (errors.length) {
    throw new ValidationError(errors, `Il campo «${errors[0]!.path}» contiene caratteri non ammessi (carattere nullo o testo non codificabile)`);
  }
}

/** JSON and form bodies (parsed before this runs) and the query string. */
export function refuseUnstorableInput(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    assertStorable((ctx.request as unknown as { body?: unknown }).body);
    assertStorable(ctx.query);
    await next();
  };
}

/**
 * Path parameters, named as the route declares them: a check on every parameter name in use,
 * registered once the routes are. Multipart fields and file names are checked where they are
 * parsed (the document upload), with the same function.
 */
export function refuseUnstorableParams(router: Router<AppState>): void {
  const names = new Set(router.stack.flatMap((layer) => layer.paramNames.map((k) => String(k.name))));
  for (const name of names) {
    router.param(name, (value, _ctx, next) => {
      if (!isStorableText(value)) throw new ValidationError([{ path: name, message: UNSTORABLE_TEXT_MESSAGE }], `Il parametro «${name}» contiene caratteri non ammessi`);
      return next();
    });
  }
}
