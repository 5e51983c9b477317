import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * An EDD case already approved by a supervisor, written as its projection would be: the CDD
 * tests need one to complete an enhanced task, and the EDD process itself is tested in
 * test/workflows/edd.test.ts. The code series is its own (EDD-9xxxxx) so it never meets a real one.
 */
export async function insertApprovedEdd(owner: Knex, codAzienda: string, codAnagrafe: string, cddPraticaId: string | null = null): Promise<string> {
  const id = randomUUID();
  const at = new Date();
  await owner('edd_casi').insert({
    id, cod_azienda: codAzienda, cod_edd: `EDD-9${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`, cod_anagrafe: codAnagrafe,
    cdd_pratica_id: cddPraticaId, motivi: JSON.stringify(['pep']), stato: 'approved', opened_by: 'test-analyst',
    submitted_by: 'test-analyst', submitted_at: at, approved_by: 'test-co', approved_at: at, workflow_id: `edd:${codAzienda}:${id}`,
  });
  return id;
}
