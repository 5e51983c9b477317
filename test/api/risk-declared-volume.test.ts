import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { withTenant } from '../../src/db/tenant';
import { buildProfiles } from '../../src/domains/risk';
import { getTestEnv, type TestEnv } from '../helpers/env';

/**
 * The risk profile's declared yearly volume (`dichiarato.volume_annuo_eur`) and the record's
 * declared monthly one agree (docs/records.md, "The declared profile"): the questionnaire's band
 * when answered, else 12 x the record's monthly volume.
 */
describe('risk profile: the declared yearly volume from the record\'s monthly one', function () {
  this.timeout(60_000);
  let env: TestEnv;

  before(async () => { env = await getTestEnv(); });

  it('reads 12 x the monthly volume without a band, the band when the questionnaire has one', async () => {
    const tenant = await env.createTenant();
    const caseId = randomUUID();
    await env.ownerDb('onboarding_cases').insert({
      id: caseId, cod_azienda: tenant, stato: 'approved', tipo_soggetto: 'persona_fisica', email: 'x@example.test',
      cdd_answers: JSON.stringify({ volume_annuo: 'fino_10k' }), cdd_schema_version: 'cdd-2026-1', workflow_id: `onboarding:${tenant}:${caseId}`,
    });
    const person = (cod: string, over: Record<string, unknown>) => ({
      cod_azienda: tenant, cod_anagrafe: cod, tipo_soggetto: 'persona_fisica', denominazione: cod, created_by: 'test', ...over,
    });
    await env.ownerDb('anagrafe').insert([
      person('ANA-1', { volume_mensile_atteso_eur: 2500.5 }),
      person('ANA-2', { volume_mensile_atteso_eur: 2500, onboarding_case_id: caseId }),
      person('ANA-3', {}),
    ]);
    const profiles = await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => buildProfiles(trx, tenant, ['ANA-1', 'ANA-2', 'ANA-3'], '2026-06-01'));
    assert.deepEqual(['ANA-1', 'ANA-2', 'ANA-3'].map((c) => profiles.get(c)!.dichiarato.volume_annuo_eur), [30_006, 10_000, null]);
  });
});
