import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOnboardingActivities } from '../../activities/onboarding/onboarding.activities';
import { withTenant } from '../../src/db/tenant';
import { CDD_SCHEMA_VERSION } from '../../src/domains/onboarding/onboarding.cdd-schema';
import { createCustomer } from '../../src/domains/records';
import { onboardingWorkflowId, type OnboardingEdit } from '../../workflows/onboarding/onboarding.contract';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { companyAnagrafe, companyCdd, companyOwners } from './fixtures/onboarding-application';

const customer = (caseId: string) => ({ id: `cliente:${caseId}`, username: 'cliente', roles: ['cliente'] });

/**
 * What an approval declares for monitoring (docs/records.md, "The declared profile"): a new
 * customer takes the case's onboarding date and the questionnaire's volume and cash use; a customer
 * already known keeps its first onboarding date and what it recorded that agrees with the answers,
 * and takes what disagrees, as a new version.
 */
describe('onboarding approval: the declared profile on the customer record', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let acts: ReturnType<typeof createOnboardingActivities>;
  let dir: string;

  before(async () => {
    env = await getTestEnv();
    dir = mkdtempSync(join(tmpdir(), 'cp-onb-declared-'));
    acts = createOnboardingActivities({ db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: { ...env.deps.config, documentDir: dir }, dispatch: env.deps.dispatch });
  });
  after(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

  /** A company case with valid tax ids, approved by `co` (the activity alone, as the workflow calls it). */
  async function approve(tenant: string, co: { cod_utente: string; username: string }, risposte: Record<string, unknown>) {
    const caseId = randomUUID();
    const step = (actor: { id: string; username: string; roles: string[] } = customer(caseId)) => ({ codAzienda: tenant, caseId, transitionId: randomUUID(), actor });
    await acts.createOnboardingProjection({ ...step(), data: { email: 'richiedente@example.test', canale: 'online', subjectType: null }, workflowId: onboardingWorkflowId(tenant, caseId) });
    const edit = (e: OnboardingEdit) => acts.applyOnboardingEdit({ ...step(), edit: e });
    await edit({ kind: 'section', section: 'subject_type', data: { subject_type: 'societa' } });
    await edit({ kind: 'section', section: 'anagrafe', data: { ...companyAnagrafe(), codice_fiscale: '01234567897', partita_iva: '01234567897' } });
    await edit({ kind: 'section', section: 'ubo', data: { titolari: companyOwners() } });
    await edit({ kind: 'section', section: 'cdd_answers', data: { versione: CDD_SCHEMA_VERSION, risposte } });
    return acts.materialiseOnboardingCustomer({ ...step({ id: co.cod_utente, username: co.username, roles: ['co'] }), firstApprover: null });
  }

  it('a known customer keeps its first onboarding date and what agrees with the answers; what disagrees is a new version', async () => {
    const tenant = await env.createTenant();
    const co = await env.createUser({ tenant, roles: ['co'] });
    const known = await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => createCustomer(trx, tenant, 'test', {
      tipo_soggetto: 'societa', denominazione: 'Alfa Beta S.r.l.', partita_iva: '01234567897', codice_fiscale: '01234567897',
      data_onboarding: '2020-01-15', volume_mensile_atteso_eur: 3000, uso_contanti_atteso: 'nessuno',
    }));
    const row = () => env.ownerDb('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: known.cod_anagrafe }).first();
    const declared = async () => {
      const r = await row();
      return [r.data_onboarding.toLocaleDateString('sv-SE'), Number(r.volume_mensile_atteso_eur), r.uso_contanti_atteso];
    };

    // 12 x 3,000 = 36,000 is within 10k-50k and 'nessuno' agrees with "no relevant cash": kept.
    const first = await approve(tenant, co, { ...companyCdd(), volume_annuo: '10k_50k', contanti: false });
    assert.equal(first.codAnagrafe, known.cod_anagrafe);
    assert.deepEqual(await declared(), ['2020-01-15', 3000, 'nessuno']);
    const v2 = await env.ownerDb('anagrafe_versioni').where({ cod_azienda: tenant, cod_anagrafe: known.cod_anagrafe, versione: 2 }).first();
    assert.deepEqual(Object.keys(v2.campi).sort(), ['classe_rischio'], 'only the risk class changed');

    // A later onboarding declares more, and relevant cash: the band's ceiling / 12 and 'alto' replace them.
    await approve(tenant, co, { ...companyCdd(), volume_annuo: '50k_250k', contanti: true });
    assert.deepEqual(await declared(), ['2020-01-15', 20_833.33, 'alto']);
    const last = await env.ownerDb('anagrafe_versioni').where({ cod_azienda: tenant, cod_anagrafe: known.cod_anagrafe }).orderBy('versione', 'desc').first();
    assert.deepEqual(last.campi.volume_mensile_atteso_eur, { old: 3000, new: 20_833.33 });
    assert.deepEqual(last.campi.uso_contanti_atteso, { old: 'nessuno', new: 'alto' });
    assert.equal(last.changed_by, co.username);
  });
});
