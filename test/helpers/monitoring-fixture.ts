import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { withTenant } from '../../src/db/tenant';
import { raiseAlerts, type AlertCandidate } from '../../src/domains/monitoring';
import type { TestEnv } from './env';
import type { TestClient } from './http-client';

/**
 * A tenant's monitoring data for the API, page and browser tests: customers, relationships and
 * movements written by the owner (the movements area's own tests cover how they are recorded), and
 * rules and alerts made the way the product makes them (the API, raiseAlerts).
 */
export const RULE_CONDITION = {
  tutti: [
    { campo: 'evento.contanti', op: 'eq', valore: true },
    { aggregato: { fn: 'sum', finestra_giorni: 30, contanti: true }, op: 'gte', valore: 10000 },
  ],
};

export const ruleBody = (cod: string, over: Record<string, unknown> = {}) => ({
  cod_regola: cod, nome: `Contanti oltre soglia ${cod}`, tipologia: 'contanti_oltre_soglia', condizione: RULE_CONDITION,
  ambito: 'evento', livello: 'cliente', punteggio: 60, esito: 'alert', finestra_dedup_giorni: 30, indicatori: ['11.1'], descrizione: '', ...over,
});

/** Customers C-1..C-n with a relationship R-i each, and `perCustomer` movements each (cash every other one). */
export async function seedCustomers(owner: Knex, tenant: string, n = 3, perCustomer = 4) {
  const rows = Array.from({ length: n }, (_, i) => i + 1);
  await owner('anagrafe').insert(rows.map((i) => ({ cod_azienda: tenant, cod_anagrafe: `C-${i}`, tipo_soggetto: 'persona_fisica', denominazione: `Cliente Monitorato ${i}`, created_by: 'test' })));
  await owner('rapporti').insert(rows.map((i) => ({ cod_azienda: tenant, cod_rapporto: `R-${i}`, cod_anagrafe: `C-${i}`, tipo: 'conto_corrente', data_apertura: '2024-01-01', created_by: 'test' })));
  const movements = rows.flatMap((i) => Array.from({ length: perCustomer }, (_, k) => ({
    id: randomUUID(), cod_azienda: tenant, cod_rapporto: `R-${i}`, cod_anagrafe: `C-${i}`, data_operazione: `2026-03-${String(10 + k).padStart(2, '0')}`,
    importo: 4_900 + k, importo_eur: 4_900 + k, segno: k % 2 ? 'uscita' : 'entrata', contanti: k % 2 === 0, causale: 'Versamento', canale: 'sportello',
    chiave_esterna: `mon-${tenant}-${i}-${k}`, created_by: 'test',
  })));
  if (movements.length) await owner('movimenti').insert(movements);
  return { customers: rows.map((i) => `C-${i}`), movements };
}

/** Activates a rule's draft the way the release gate will (the command, in a tenant transaction). */
export async function activateDraft(env: TestEnv, tenant: string, versionId: string) {
  const { activateRuleVersion } = await import('../../src/domains/monitoring');
  return withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) =>
    activateRuleVersion(trx, { codAzienda: tenant, versionId, actor: { id: 'test-gate', username: 'test-gate' } }));
}

/** raiseAlerts in a tenant transaction of its own, as an evaluation path would call it. */
export function raise(env: TestEnv, tenant: string, candidates: AlertCandidate[]) {
  return withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => raiseAlerts(trx, tenant, candidates));
}

/** A hit of rule `cod` v`versione` on a customer over a window, with its own key. */
export const hit = (cod: string, codAnagrafe: string, da: string, a: string, over: Partial<AlertCandidate> = {}): AlertCandidate => ({
  codAnagrafe, regola: { codRegola: cod, versione: 1 }, origine: 'giornaliero', punteggio: 60, dataRilevazione: new Date(`${a}T20:00:00Z`),
  finestraDa: da, finestraA: a, chiaveRiscontro: `${cod}:1:${codAnagrafe}:${a}`, evidenza: { somma_contanti_30g: 12_000, soglia: 10_000 }, ...over,
});

/**
 * The monitoring pages of the page catalogue: customers with movements, a rule in force with a
 * draft, and alerts in three states (new, a dismissal waiting for a second person, escalated into a case).
 */
export async function seedMonitoringPages(env: TestEnv, tenant: string, co: TestClient, analyst: TestClient, analystId: string) {
  const { movements } = await seedCustomers(env.ownerDb, tenant, 3, 4);
  const rule = await co.post('/api/monitoring/rules', ruleBody('contanti_mensili', { indicatori: ['11.1', '11.2'] }));
  assert.equal(rule.status, 201, rule.text);
  await activateDraft(env, tenant, rule.body.bozza.id);
  const draft = await co.put(`/api/monitoring/rules/${rule.body.id}`, { punteggio: 70 });
  assert.equal(draft.status, 200, draft.text);
  const mov = (customer: string) => movements.filter((m) => m.cod_anagrafe === customer).map((m) => ({ id: m.id, data_operazione: m.data_operazione }));
  const [fresh, closing, escalated] = await raise(env, tenant, [
    hit('contanti_mensili', 'C-1', '2026-02-20', '2026-03-13', { movimenti: mov('C-1'), punteggio: 60 }),
    hit('contanti_mensili', 'C-2', '2026-02-20', '2026-03-13', { movimenti: mov('C-2'), punteggio: 85 }),
    hit('contanti_mensili', 'C-3', '2026-02-20', '2026-03-13', { movimenti: mov('C-3'), punteggio: 90 }),
  ]);
  for (const a of [closing!, escalated!]) {
    const r = await analyst.put(`/api/monitoring/alerts/${a.id}/assign`, { assegnatario: analystId });
    assert.equal(r.status, 200, r.text);
  }
  const proposed = await analyst.put(`/api/monitoring/alerts/${closing!.id}/close`, { disposizione: 'giustificato', motivazione: 'Versamenti degli incassi del bar, coerenti con l\'attività dichiarata.' });
  assert.equal(proposed.body.stato, 'closing', proposed.text);
  const esc = await analyst.put(`/api/monitoring/alerts/${escalated!.id}/escalate`, { motivazione: 'Contanti ben oltre il profilo dichiarato' });
  assert.equal(esc.status, 200, esc.text);
  return { ruleId: rule.body.id as string, alerts: { fresh: fresh!.id, closing: closing!.id, escalated: escalated!.id }, movement: movements[0]!.id };
}
