import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestEnv } from './env';
import type { TestClient } from './http-client';
import { activateDraft } from './monitoring-fixture';
import { cashRule, insertMovements, waitForRun } from './monitoring-runs';

/**
 * The monitoring evaluation paths' pages, seeded for the page catalogue: customers with a cash rule
 * in force, a movement decided in real time (its trace), a KYT event that raised a KYT alert, a
 * completed replay and a completed backtest of a draft whose release waits for a second person, and
 * a tenant list with two versions.
 */
export async function seedMonitoringEvalPages(env: TestEnv, tenant: string, co: TestClient, analyst: TestClient) {
  const o = env.ownerDb;
  // Codes of their own (E-n, ER-n): the catalogue's tenant holds the alert pages' customers too.
  await o('anagrafe').insert([1, 2, 3].map((i) => ({
    cod_azienda: tenant, cod_anagrafe: `E-${i}`, tipo_soggetto: 'persona_fisica', denominazione: ['Lucia Ferri', 'Paolo Conti', 'Marta Galli'][i - 1], created_by: 'test',
  })));
  await o('rapporti').insert([1, 2, 3].map((i) => ({ cod_azienda: tenant, cod_rapporto: `ER-${i}`, cod_anagrafe: `E-${i}`, tipo: 'conto_corrente', data_apertura: '2024-01-01', created_by: 'test' })));
  const wallet = '0x5555555555555555555555555555555555555555';
  const listed = '0x6666666666666666666666666666666666666666';
  await o('wallets').insert({ id: randomUUID(), cod_azienda: tenant, cod_anagrafe: 'E-2', rete: 'ethereum', indirizzo: wallet, tipo: 'self_hosted', stato: 'verificato' });
  assert.equal((await co.put('/api/monitoring/liste/indirizzi_crypto_tenant', { aggiungi: [listed], motivazione: 'Indirizzo segnalato da un intermediario' })).status, 200);
  const lista = await co.post('/api/monitoring/liste', { codice: 'controparti_osservate', nome: 'Controparti sotto osservazione', tipo: 'controparti', voci: ['IT60X0542811101000000123456'] });
  assert.equal(lista.status, 201, lista.text);

  const cash = await co.post('/api/monitoring/rules', cashRule('contanti_30g', 10_000));
  await activateDraft(env, tenant, cash.body.bozza.id);
  const kyt = await co.post('/api/monitoring/rules', cashRule('kyt_lista_interna', 0, {
    nome: 'Esposizione alla lista interna', tipologia: 'crypto_liste_interne', punteggio: 80,
    condizione: { campo: 'evento.indirizzo_controparte', op: 'in', valore: { lista: 'indirizzi_crypto_tenant' } },
  }));
  await activateDraft(env, tenant, kyt.body.bozza.id);

  await insertMovements(o, tenant, [
    { cod: 'E-1', rapporto: 'ER-1', day: '2026-01-10', importo: 7_000 }, { cod: 'E-3', rapporto: 'ER-3', day: '2026-01-12', importo: 8_500 },
    { cod: 'E-3', rapporto: 'ER-3', day: '2026-01-20', importo: 500 },
  ]);
  const posted = await analyst.post('/api/movimenti', { cod_rapporto: 'ER-1', data_operazione: '2026-01-20', importo: 4_000, segno: 'entrata', contanti: true, causale: 'Versamento', chiave_esterna: 'cat-mon-1' });
  assert.equal(posted.body.movimenti[0].decisione.esito, 'alert', posted.text);
  const event = await analyst.post('/api/kyt/events', {
    chain: 'ethereum', hash: `0x${'ab'.repeat(32)}`, indirizzo_da: listed, indirizzo_a: wallet, asset: 'USDT', importo: '2500', importo_eur: 2_310.4, data_ora: '2026-01-21T09:30:00Z',
  });
  assert.equal(event.status, 201, event.text);

  const replay = await co.post('/api/monitoring/replay', { dal: '2026-01-01', al: '2026-01-31' });
  await waitForRun(co, replay.body.id);
  assert.equal((await co.put(`/api/monitoring/rules/${cash.body.id}`, { condizione: cashRule('x', 8_000).condizione })).status, 200);
  const backtest = await co.post(`/api/monitoring/rules/${cash.body.id}/backtest`, { dal: '2026-01-01', al: '2026-01-31' });
  await waitForRun(co, backtest.body.id);
  assert.equal((await co.post(`/api/monitoring/rules/${cash.body.id}/rilascio`, { motivazione: 'Soglia più bassa dopo il backtest' })).status, 202);

  return {
    movimento: posted.body.movimenti[0].id as string,
    decisioneMovimento: posted.body.movimenti[0].decisione.cod_decisione as string,
    decisioneKyt: event.body.eventi[0].decisione.cod_decisione as string,
    eventoKyt: event.body.eventi[0].evento.cod_evento as string,
    replay: replay.body.id as string,
    backtest: backtest.body.id as string,
    regola: cash.body.id as string,
    lista: 'controparti_osservate',
  };
}
