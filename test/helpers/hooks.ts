import { hasAuditActionLabel } from '../../src/domains/audit/audit.labels';
import { startedTestEnv, stopTestEnv } from './env';
import { runEndClosers } from './run-end';
import { shareWorkflowBundles } from './workflow-bundles';

// One webpack bundle per workflow entry for the whole run (see workflow-bundles.ts).
shareWorkflowBundles();

/**
 * Root hooks. After every file ran: each audit action the run wrote must have an Italian label
 * (the type of AuditInput.action catches literals; this catches what slips past it, such as a
 * cast or a raw insert). Test fixtures use the `test.` prefix and are skipped.
 */
export const mochaHooks = {
  async afterAll(this: unknown) {
    const started = startedTestEnv();
    if (!started) return;
    const env = await started.catch(() => undefined);
    if (!env) return;
    const rows: { action: string }[] = await env.ownerDb('audit_events').distinct('action').whereNot('action', 'like', 'test.%');
    const missing = rows.map((r) => r.action).filter((a) => !hasAuditActionLabel(a)).sort();
    if (missing.length) throw new Error(`audit actions without an Italian label in src/domains/audit/audit.labels.ts: ${missing.join(', ')}`);
  },
};

/** Mocha global fixture: the shared fixtures (browser, ...) and the stack are stopped once, after every file ran. */
export async function mochaGlobalTeardown() {
  await runEndClosers();
  await stopTestEnv();
}
