import assert from 'node:assert/strict';
import type { TestEnv } from './env';
import type { TestClient } from './http-client';

/**
 * A tenant's month of cash at the counter, in the shapes the platform stores (customers and
 * relationships with their external codes, residence and ATECO sector; movements through
 * POST /api/movimenti, the way a core banking feed sends them):
 * - ANA-R1 (a grocer) deposits EUR 1,000 six times and withdraws EUR 1,000 five times on RAP-R1;
 * - ANA-R2 deposits EUR 1,000 six times on ANA-R1's RAP-R1 as executor, and four times on own RAP-R2;
 * - ANA-R3 deposits EUR 990 twelve times (under the floor: never counted);
 * - ANA-R1 receives a transfer of EUR 20,000 (not cash: S.AR.A. only).
 */
export async function seedReportingMonth(env: TestEnv, tenant: string, writer: TestClient, periodo: string, prefix = 'rep'): Promise<void> {
  const o = env.ownerDb;
  const exists = await o('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: 'ANA-R1' }).first();
  if (!exists) {
    await o('anagrafe').insert([
      { cod_azienda: tenant, cod_anagrafe: 'ANA-R1', tipo_soggetto: 'persona_fisica', denominazione: 'Mario Rossi', nome: 'Mario', cognome: 'Rossi', codice_fiscale: 'RSSMRA80A01H501U', paese_residenza: 'IT', ateco: '47.11.10', codice_esterno: 'CBS-000101', created_by: 'test' },
      { cod_azienda: tenant, cod_anagrafe: 'ANA-R2', tipo_soggetto: 'persona_fisica', denominazione: 'Giulia Bianchi', nome: 'Giulia', cognome: 'Bianchi', paese_residenza: 'FR', ateco: '56.10.11', codice_esterno: 'CBS-000102', created_by: 'test' },
      { cod_azienda: tenant, cod_anagrafe: 'ANA-R3', tipo_soggetto: 'persona_fisica', denominazione: 'Luca Verdi', nome: 'Luca', cognome: 'Verdi', paese_residenza: 'IT', created_by: 'test' },
    ]);
    await o('rapporti').insert([
      { cod_azienda: tenant, cod_rapporto: 'RAP-R1', cod_anagrafe: 'ANA-R1', tipo: 'conto_corrente', data_apertura: '2020-01-01', codice_esterno: 'IT60X0542811101000000123456', created_by: 'test' },
      { cod_azienda: tenant, cod_rapporto: 'RAP-R2', cod_anagrafe: 'ANA-R2', tipo: 'conto_corrente', data_apertura: '2020-01-01', codice_esterno: 'IT60X0542811101000000654321', created_by: 'test' },
      { cod_azienda: tenant, cod_rapporto: 'RAP-R3', cod_anagrafe: 'ANA-R3', tipo: 'conto_corrente', data_apertura: '2020-01-01', created_by: 'test' },
    ]);
  }
  const day = (i: number) => `${periodo}-${String(i + 1).padStart(2, '0')}`;
  const cash = (key: string, i: number, over: Record<string, unknown>) => ({
    data_operazione: day(i), importo: 1000, segno: 'entrata', contanti: true, causale: 'Versamento contanti', canale: 'sportello', chiave_esterna: `${prefix}-${periodo}-${key}-${i}`, ...over,
  });
  const movimenti = [
    ...Array.from({ length: 6 }, (_, i) => cash('r1-in', i, { cod_rapporto: 'RAP-R1' })),
    ...Array.from({ length: 5 }, (_, i) => cash('r1-out', i, { cod_rapporto: 'RAP-R1', segno: 'uscita', causale: 'Prelevamento contanti' })),
    ...Array.from({ length: 6 }, (_, i) => cash('r2-exec', i + 6, { cod_rapporto: 'RAP-R1', cod_anagrafe_esecutore: 'ANA-R2' })),
    ...Array.from({ length: 4 }, (_, i) => cash('r2-own', i + 12, { cod_rapporto: 'RAP-R2' })),
    ...Array.from({ length: 12 }, (_, i) => cash('r3', i, { cod_rapporto: 'RAP-R3', importo: 990 })),
    { cod_rapporto: 'RAP-R1', data_operazione: day(20), importo: 20000, segno: 'entrata', contanti: false, causale: 'Bonifico in entrata', canale: 'sepa', chiave_esterna: `${prefix}-${periodo}-bonifico`, controparte_nome: 'Alfa S.r.l.', controparte_paese: 'IT' },
  ];
  const r = await writer.post('/api/movimenti', { movimenti });
  assert.equal(r.status, 201, r.text);
}

/** Waits for a report's generation to end (the workflow's progress, read through the API). */
export async function generatedReport(c: TestClient, id: string, timeoutMs = 60_000): Promise<Record<string, any>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await c.get(`/api/reporting/reports/${id}`);
    assert.equal(r.status, 200, r.text);
    if (r.body.stato !== 'generating') return r.body;
    if (Date.now() > until) assert.fail(`report ${id} still generating: ${r.text}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}
