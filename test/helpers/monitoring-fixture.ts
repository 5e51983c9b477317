import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { withTenant } from '../../src/db/tenant';
import { raiseAlerts, type AlertCandidate } from '../../src/domains/monitoring';
import type { TestEnv } from './env';

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
