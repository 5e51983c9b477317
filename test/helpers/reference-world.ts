import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { ReferenceTarget } from '../../src/db/references';
import { openCase } from '../api/onboarding-fixtures';
import type { TestEnv, TestUser } from './env';
import type { TestClient } from './http-client';

/**
 * Two tenants holding one record of every kind a request body may name (src/db/references.ts,
 * ReferenceTarget), built the same way in each: the reference walk calls as the first and
 * points the body's fields at the second's records, or at nothing. Codes carry the tenant's own
 * code, so a record of one tenant never shares its code with a record of the other.
 */
export interface TenantRecords {
  tenant: string;
  user: TestUser;
  staff: TestClient;
  /** The onboarding applicant of `onboardingCase`, with its session. */
  applicant: TestClient;
  persone: [string, string];
  societa: [string, string];
  values: Record<ReferenceTarget, string>;
  /** The KYB verification whose structure holds `values.nodo_struttura` and a company node. */
  kyb: { cod: string; companyNode: string };
}

const ok = (r: { status: number; text: string }, what: string) => assert.ok(r.status >= 200 && r.status < 300, `${what}: ${r.status} ${r.text.slice(0, 300)}`);

async function customers(owner: Knex, tenant: string) {
  const cod = (what: string) => `ANA-${tenant}-${what}`;
  const rows = [
    ...['P1', 'P2'].map((p) => ({ cod_anagrafe: cod(p), tipo_soggetto: 'persona_fisica', denominazione: `Persona ${p} ${tenant}`, nome: 'Maria', cognome: `Rossi ${p}` })),
    ...['S1', 'S2'].map((s) => ({ cod_anagrafe: cod(s), tipo_soggetto: 'societa', denominazione: `Società ${s} ${tenant} S.r.l.` })),
  ];
  await owner('anagrafe').insert(rows.map((r) => ({ ...r, cod_azienda: tenant, nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test' })));
  await owner('rapporti').insert({ cod_azienda: tenant, cod_rapporto: `RAP-${tenant}-1`, cod_anagrafe: cod('P1'), tipo: 'conto_corrente', data_apertura: '2020-01-01', created_by: 'test' });
  return { persone: [cod('P1'), cod('P2')] as [string, string], societa: [cod('S1'), cod('S2')] as [string, string] };
}

/** A calculated assessment, as the assessment process leaves it (a code of the fixture's own series, VAL-8…, random: one per tenant). */
async function assessment(owner: Knex, tenant: string, codAnagrafe: string, versioneId: string): Promise<string> {
  const id = randomUUID();
  const cod = `VAL-8${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  await owner('rischio_valutazioni').insert({
    id, cod_azienda: tenant, cod_valutazione: cod, cod_anagrafe: codAnagrafe, motivo: 'manuale', versione_id: versioneId, punteggio: 30, classe_calcolata: 'medio',
    probabilita: 2, impatto: 2, contributi: JSON.stringify([]), profilo: JSON.stringify({}), workflow_id: `risk-assessment:${tenant}:${id}`, created_by: 'test', stato: 'completed',
  });
  return cod;
}

/** One beneficial owner saved by the applicant: its id is what the case's documents may refer to. */
async function onboardingOwner(applicant: TestClient, base: string): Promise<string> {
  const r = await applicant.post(`${base}/ubo`, {
    titolari: [{ nome: 'Marco', cognome: 'Verdi', data_nascita: '1975-05-10', nazionalita: 'IT', paese_residenza: 'IT', percentuale: 60, tipo_controllo: 'proprieta_diretta', pep: false }],
  });
  ok(r, 'beneficial owner');
  return (r.body.ubo.titolari as { id: string }[])[0]!.id;
}

export async function tenantRecords(env: TestEnv): Promise<TenantRecords> {
  const tenant = await env.createTenant();
  const user = await env.createUser({ tenant, roles: ['admin', 'co', 'analyst', 'sos'] });
  const staff = await env.login(user);
  const { persone, societa } = await customers(env.ownerDb, tenant);

  const documento = await staff.post('/api/documenti', { cod_anagrafe: persone[0], tipo: 'altro', numero: 'DOC-1' });
  ok(documento, 'document');
  const pratica = await staff.post(`/api/cdd/initiate/${persone[0]}`, {});
  ok(pratica, 'CDD task');
  const caso = await staff.post('/api/cases', { titolo: 'Caso del percorso dei riferimenti', tipo: 'indagine', priorita: 'media' });
  ok(caso, 'case');
  const factors = await staff.get('/api/risk/factors');
  ok(factors, 'risk factors');
  const versions = await staff.get('/api/risk/rule-sets');
  const versioneId = (versions.body.items as { id: string; stato: string }[]).find((v) => v.stato === 'active')!.id;

  const kyb = await staff.post('/api/v1/kyb/verifiche', { cod_anagrafe: societa[0] });
  ok(kyb, 'KYB verification');
  const nodes = `/api/v1/kyb/verifiche/${kyb.body.cod_verifica}/struttura/nodi`;
  const person = await staff.post(nodes, { tipo: 'persona_fisica', denominazione: 'Marco Verdi' });
  ok(person, 'structure node');
  const company = await staff.post(nodes, { tipo: 'societa', denominazione: 'Holding Verdi S.r.l.' });
  ok(company, 'structure node');

  const onboarding = await openCase(env, tenant, { subjectType: 'societa' });
  return {
    tenant, user, staff, applicant: onboarding.client, persone, societa,
    kyb: { cod: kyb.body.cod_verifica, companyNode: company.body.id },
    values: {
      utente: user.cod_utente,
      soggetto: persone[0],
      workflow: caso.body.workflow_id,
      cdd_pratica: pratica.body.id,
      valutazione: await assessment(env.ownerDb, tenant, persone[1], versioneId),
      rischio_versione: versioneId,
      pratica_onboarding: onboarding.caseId,
      rapporto: `RAP-${tenant}-1`,
      documento: documento.body.id,
      rischio_fattore: (factors.body.items as { id: string }[])[0]!.id,
      nodo_struttura: person.body.id,
      titolare_pratica: await onboardingOwner(onboarding.client, onboarding.base),
      cliente: persone[0],
      movimento: await movement(staff, tenant, persone[0]),
    },
  };
}

/** One movement of the customer's relationship, through the API: its id. */
async function movement(staff: TestClient, tenant: string, codAnagrafe: string): Promise<string> {
  const r = await staff.post('/api/movimenti', {
    cod_rapporto: `RAP-${tenant}-1`, cod_anagrafe: codAnagrafe, data_operazione: new Date().toISOString().slice(0, 10), importo: 250, segno: 'entrata', chiave_esterna: `rif-${tenant}`,
  });
  ok(r, 'movement');
  return (r.body.movimenti as { id: string }[])[0]!.id;
}

/** A value of each kind that names no record anywhere, shaped like a real one (so only the lookup can refuse it). */
export function missingValues(caller: string): Record<ReferenceTarget, string> {
  const uuid = () => randomUUID();
  return {
    utente: uuid(), soggetto: 'ANA-NESSUNO-1', workflow: `case:${caller}:${uuid()}`, cdd_pratica: uuid(), valutazione: 'VAL-7000000',
    rischio_versione: uuid(), pratica_onboarding: uuid(), rapporto: 'RAP-NESSUNO-1', documento: uuid(), rischio_fattore: uuid(), nodo_struttura: uuid(),
    titolare_pratica: uuid(), cliente: 'ANA-NESSUNO-1', movimento: uuid(),
  };
}
