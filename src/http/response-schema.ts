import type Koa from 'koa';
import type { z } from 'zod';
import { logger } from '../infra/logger';

/** A handler answered something its declared response schema does not describe. */
export class ResponseSchemaError extends Error {
  constructor(public readonly route: string, public readonly issues: z.core.$ZodIssue[]) {
    super(`response of ${route} does not match its declared schema: ${issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  }
}

/**
 * The answer as published: parsed with the declared schema, so fields the schema does not
 * declare are stripped and values are in their declared form. A mismatch is a bug in the
 * route: outside production it fails the request (500, logged with the issues), so tests and
 * the fuzzer see it; in production it is logged as an error and the handler's answer goes out
 * unchanged, so one undeclared shape never takes a working endpoint down.
 */
export function conformResponse(route: string, schema: z.ZodType | undefined, result: unknown, production = process.env.NODE_ENV === 'production'): unknown {
  if (!schema) return result;
  // The schema describes the JSON the client reads (dates as strings...), so that is what is checked.
  const json: unknown = JSON.parse(JSON.stringify(result));
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const err = new ResponseSchemaError(route, parsed.error.issues);
  if (!production) throw err;
  logger.error({ err, route }, 'response does not match its declared schema');
  return json;
}

interface Declared { method: string; path: string; status?: number; response?: z.ZodType; otherResponses?: Record<number, z.ZodType> }

const isJsonValue = (v: unknown) => v !== null && typeof v === 'object' && !Buffer.isBuffer(v) && typeof (v as { pipe?: unknown }).pipe !== 'function';

/**
 * Puts the handler's answer on the response as the route declares it: a returned value gets
 * the success status; a body the handler set itself (another status, a file) is checked
 * against the schema declared for its status, when it is JSON.
 */
export function answerAsDeclared(ctx: Koa.Context, def: Declared, result: unknown): void {
  const route = `${def.method} ${def.path}`;
  const success = def.status ?? 200;
  if (result !== undefined) {
    ctx.status = success;
    ctx.body = conformResponse(route, def.response, result);
  } else if (ctx.body === undefined || ctx.body === null) {
    ctx.status = 204;
  } else if (isJsonValue(ctx.body)) {
    const schema = ctx.status === success ? def.response : def.otherResponses?.[ctx.status];
    if (schema) ctx.body = conformResponse(route, schema, ctx.body);
  }
}
