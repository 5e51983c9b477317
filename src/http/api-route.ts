import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type Koa from 'koa';
import type { z } from 'zod';
import { accessGuard, type Access } from '../kit/access';
import type { AppState } from './context';
import type { OpenApiRegistry } from './openapi';
import { answerAsDeclared } from './response-schema';
import { parseOrThrow } from './validate';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type ApiCtx = RouterContext<AppState>;

export interface ApiRouteDef<B extends z.ZodType, Q extends z.ZodType> {
  method: Method;
  path: string;
  summary: string;
  tag: string;
  /** Who may call it (src/kit/access.ts): staff with roles, the applicant, a signer, the public. */
  access: Access;
  body?: B;
  /** The body is multipart/form-data, parsed by the handler (body documents it only). */
  multipart?: boolean;
  query?: Q;
  response?: z.ZodType;
  status?: number;
  /** Other success answers, given by the handler setting ctx.status and ctx.body (202 while pending...): status -> schema. */
  otherResponses?: Record<number, z.ZodType>;
  handler: (ctx: ApiCtx, input: { body: z.infer<B>; query: z.infer<Q>; params: Record<string, string> }) => Promise<unknown>;
}

/**
 * Declares a JSON endpoint once: the route, its role check, zod validation (422 problem
 * details on bad input) and its OpenAPI operation all come from the same definition.
 */
export function apiRoute<B extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodUnknown>(
  router: Router<AppState>, openapi: OpenApiRegistry, def: ApiRouteDef<B, Q>,
) {
  openapi.add({ method: def.method, path: def.path, summary: def.summary, tags: [def.tag], access: def.access, body: def.body, multipart: def.multipart, query: def.query, response: def.response, successStatus: def.status ?? 200, otherResponses: def.otherResponses });
  const guard: Koa.Middleware<AppState>[] = [accessGuard(def.access)];
  const handler = async (ctx: ApiCtx) => {
    const raw = (ctx.request as unknown as { body?: unknown }).body;
    const body = def.body && !def.multipart ? parseOrThrow(def.body, raw ?? {}) : (raw as z.infer<B>);
    const query = def.query ? parseOrThrow(def.query, ctx.query) : (ctx.query as z.infer<Q>);
    const result = await def.handler(ctx, { body, query, params: ctx.params as Record<string, string> });
    answerAsDeclared(ctx, def, result);
  };
  const m = def.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  (router[m] as (path: string, ...mw: unknown[]) => unknown)(def.path, ...guard, handler);
}
