import type { Knex } from 'knex';
import type { AuditAction } from '../../src/domains/audit/audit.labels';

/**
 * A synthetic action for tests of the chain itself: production actions must have a label
 * (AuditAction), test fixtures use the `test.` prefix that the label hook (hooks.ts) skips.
 */
export const testAction = (name: string) => `test.${name}` as AuditAction;

/**
 * Waits until the worker's sealer has chained every event of the chain committed so far
 * (it polls every 200 ms). For tests that read seq or hash right after writing.
 */
export async function waitForSealed(db: Knex, chain: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await db('audit_events').where({ cod_azienda: chain }).whereNull('seq').count<{ n: number }[]>({ n: '*' }).first();
    if (Number(row?.n) === 0) return;
    if (Date.now() > deadline) throw new Error(`${row?.n} audit events of ${chain} still unsealed after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
