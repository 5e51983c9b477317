import type { TestClient } from '../../test/helpers/http-client';

interface ImportStatus {
  run: { id: string; status: 'running' | 'completed' | 'failed'; error?: string | null } | null;
  rescreen: { tenants_total: number; tenants_done: number } | null;
}

/**
 * Waits until the latest sanctions list import and its re-screen have finished (the first
 * `npm start` triggers one), polling GET /api/v1/screening/import/stato as a staff reader.
 */
export async function waitForListImport(client: TestClient, opts: { timeoutMs?: number; pollMs?: number } = {}): Promise<ImportStatus> {
  const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
  for (;;) {
    const r = await client.get<ImportStatus>('/api/v1/screening/import/stato');
    if (r.status !== 200) throw new Error(`import status answered ${r.status}: ${r.text.slice(0, 200)}`);
    const { run, rescreen } = r.body;
    if (run?.status === 'failed') throw new Error(`list import failed: ${run.error ?? ''}`);
    if (run?.status === 'completed' && (!rescreen || rescreen.tenants_done >= rescreen.tenants_total)) return r.body;
    if (Date.now() > deadline) throw new Error(`list import still ${run?.status ?? 'not started'}`);
    await new Promise((res) => setTimeout(res, opts.pollMs ?? 2000));
  }
}
