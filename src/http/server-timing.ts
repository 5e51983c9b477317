import type Koa from 'koa';

/**
 * `Server-Timing: app;dur=…` on every answer: the time the app spent, without the network,
 * for browsers' developer tools, proxies' logs and the platform benchmark.
 */
export function serverTiming(): Koa.Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      ctx.set('Server-Timing', `app;dur=${(performance.now() - started).toFixed(1)}`);
    }
  };
}
