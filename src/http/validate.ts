import type { z } from 'zod';
import { ValidationError } from './errors';

export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw ValidationError.fromZod(r.error);
  return r.data;
}

/** Field-keyed messages for re-rendering a form next to each field. */
export function fieldErrors(err: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of err.issues) {
    const k = i.path.join('.') || '_form';
    out[k] ??= i.message;
  }
  return out;
}
