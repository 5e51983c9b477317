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
