import type Router from '@koa/router';
import type { RouterMiddleware } from '@koa/router';
import type { z } from 'zod';
import { apiRoute, type ApiRouteDef } from '../http/api-route';
import type { AppState } from '../http/context';
import type { OpenApiRegistry } from '../http/openapi';
import { accessGuard, type Access } from './access';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type PageMiddleware = RouterMiddleware<AppState>;

export interface RouteDeclaration {
  method: Method;
  path: string;
  access: Access;
  /** 'api': JSON, in the OpenAPI document; 'page': HTML or a redirect. */
  kind: 'api' | 'page';
}

/**
 * What an area registers its routes on. Every route states who may call it (its Access),
 * the guard comes from that declaration, and the declarations are kept so a test can walk
 * every route of the application.
 */
export class Routes {
  readonly declared: RouteDeclaration[] = [];

  constructor(private readonly router: Router<AppState>, readonly openapi: OpenApiRegistry) {}

  /** A JSON endpoint: route, access, zod validation and its OpenAPI operation from one definition. */
  api<B extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodUnknown>(def: ApiRouteDef<B, Q>): void {
    this.declared.push({ method: def.method, path: def.path, access: def.access, kind: 'api' });
    apiRoute(this.router, this.openapi, def);
  }

  get(path: string, access: Access, ...mw: PageMiddleware[]) { this.page('GET', path, access, mw); }
  post(path: string, access: Access, ...mw: PageMiddleware[]) { this.page('POST', path, access, mw); }

  private page(method: Method, path: string, access: Access, mw: PageMiddleware[]) {
    if (!access || !Array.isArray(access.callers)) throw new Error(`${method} ${path}: a route must declare its access`);
    this.declared.push({ method, path, access, kind: 'page' });
    const m = method.toLowerCase() as 'get' | 'post';
    this.router[m](path, accessGuard(access) as PageMiddleware, ...mw);
  }
}
