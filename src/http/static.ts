import type Koa from 'koa';
import send from 'koa-send';
import { join } from 'node:path';
import { projectRoot } from '../config';

/** Vendored front-end assets straight from node_modules (no build step), cached for a year. */
const MOUNTS: [prefix: string, root: string][] = [
  ['/static/tabler/', join(projectRoot, 'node_modules/@tabler/core/dist')],
  ['/static/htmx/', join(projectRoot, 'node_modules/htmx.org/dist')],
  ['/static/echarts/', join(projectRoot, 'node_modules/echarts/dist')],
  ['/static/app/', join(projectRoot, 'public')],
];

export function staticAssets(): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD') {
      for (const [prefix, root] of MOUNTS) {
        if (ctx.path.startsWith(prefix)) {
          const rel = ctx.path.slice(prefix.length);
          const immutable = prefix !== '/static/app/';
          await send(ctx, rel, { root, maxage: immutable ? 365 * 24 * 3600_000 : 3600_000, immutable });
          return;
        }
      }
    }
    await next();
  };
}
