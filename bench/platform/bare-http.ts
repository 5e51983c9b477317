import type { Server } from 'node:http';
import Koa from 'koa';
import pg from 'pg';
import { tenantSignature } from '../../src/db/tenant-key';

export interface BareSql { text: string; values: unknown[] }

/**
 * The baseline of a list: a bare Koa handler on node-postgres running exactly the app's SQL
 * (the page and its capped count) in a transaction with the same signed tenant, as the same
 * application role, and answering the rows as JSON. No session, no validation, no template.
 */
export async function startBareHttp(p: { appDbUrl: string; tenantKey: string; codAzienda: string; pages: Record<string, BareSql[]> }) {
  const pool = new pg.Pool({ connectionString: p.appDbUrl, max: 10 });
  const signature = tenantSignature(p.tenantKey, p.codAzienda);
  const app = new Koa();
  app.use(async (ctx) => {
    const statements = p.pages[ctx.path];
    if (!statements) { ctx.status = 404; return; }
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query("select set_config('app.cod_azienda', $1, true), set_config('app.tenant_sig', $2, true)", [p.codAzienda, signature]);
      const results = [];
      for (const s of statements) results.push((await client.query(s.text, s.values)).rows);
      await client.query('commit');
      ctx.body = { items: results[0], count: results[1] };
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  });
  const server: Server = await new Promise((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await pool.end();
    },
  };
}
