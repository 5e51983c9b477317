import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { TestClient } from './http-client';

/**
 * Helpers of the monitoring runs' tests (daily batch, replay, backtest, release): movements written
 * the way an import writes them (no decision: the batch and replays find them), and the wait for a
 * run to end, read through the API like the pages read it.
 */

export interface Mov { cod: string; day: string; importo: number; contanti?: boolean; segno?: 'entrata' | 'uscita'; ora?: string; paese?: string; rapporto?: string }

/** Movements of customers C-n on their relationship R-n (or the relationship given). */
export async function insertMovements(owner: Knex, tenant: string, movs: readonly Mov[]): Promise<string[]> {
  const rows = movs.map((m, i) => ({
    id: randomUUID(), cod_azienda: tenant, cod_rapporto: m.rapporto ?? m.cod.replace('C-', 'R-'), cod_anagrafe: m.cod, data_operazione: m.day,
    ora_operazione: m.ora ?? `10:${String(i % 60).padStart(2, '0')}:00`, importo: m.importo, importo_eur: m.importo, segno: m.segno ?? 'entrata',
    contanti: m.contanti ?? true, causale: 'Versamento', canale: 'sportello', controparte_paese: m.paese ?? null,
    chiave_esterna: `imp-${randomUUID()}`, created_by: 'import',
  }));
  await owner.raw('select movimenti_ensure_partitions(?::date[])', [[...new Set(rows.map((r) => `${r.data_operazione.slice(0, 7)}-01`))]]);
  if (rows.length) await owner('movimenti').insert(rows);
  return rows.map((r) => r.id);
}

/** Waits (polling the API) until the run has ended; its last reading. */
export async function waitForRun(client: TestClient, id: string, timeoutMs = 90_000): Promise<Record<string, any>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await client.get(`/api/monitoring/esecuzioni/${id}`);
    if (r.status !== 200) throw new Error(`run ${id}: ${r.status} ${r.text}`);
    if (r.body.stato !== 'running') return r.body;
    if (Date.now() > until) throw new Error(`run ${id} still running: ${JSON.stringify(r.body)}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

export const cashRule = (cod: string, soglia: number, over: Record<string, unknown> = {}) => ({
  cod_regola: cod, nome: `Contanti oltre ${soglia} in 30 giorni`, tipologia: 'contanti_oltre_soglia', ambito: 'evento', livello: 'cliente', punteggio: 60,
  esito: 'alert', finestra_dedup_giorni: 30, indicatori: [], descrizione: '',
  condizione: { tutti: [{ campo: 'evento.contanti', op: 'eq', valore: true }, { aggregato: { fn: 'sum', finestra_giorni: 30, contanti: true }, op: 'gte', valore: soglia }] },
  ...over,
});
