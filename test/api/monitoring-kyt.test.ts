import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { activateDraft, ruleBody, seedCustomers } from '../helpers/monitoring-fixture';

const WALLET_C1 = '0x1111111111111111111111111111111111111111';
const WALLET_C2 = 'bc1qcustomertwoaddress0000000000000000000';
const LISTED = '0xBAD0000000000000000000000000000000000bad';
const STRANGER = '0x2222222222222222222222222222222222222222';

/**
 * KYT (docs/monitoring.md, "KYT"): POST /api/kyt/events resolves the customer from an address they
 * hold (onboarding wallets, travel-rule transfers) or from the code the sender gives, records the
 * event once per chain, hash and direction, evaluates it like a movement and answers the decision;
 * the KYT alerts, named by their decision, are escalated into cases. The tenant's own lists are
 * versioned reference data edited through /api/monitoring/liste.
 */
describe('KYT events and alerts (/api/kyt/*) and the named lists (/api/monitoring/liste)', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let co: TestClient, analyst: TestClient, viewer: TestClient, outsider: TestClient;

  const event = (over: Record<string, unknown> = {}) => ({
    chain: 'ethereum', hash: `0x${randomUUID().replaceAll('-', '')}`, indirizzo_da: LISTED, indirizzo_a: WALLET_C1, asset: 'ETH', importo: '1.5',
    importo_eur: 4_200.5, data_ora: '2026-03-10T14:05:00Z', ...over,
  });
  const paths = (r: { body: { errors?: { path: string }[] } }) => (r.body.errors ?? []).map((e) => e.path).sort();

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    await seedCustomers(env.ownerDb, tenant, 3, 0);
    await seedCustomers(env.ownerDb, other, 1, 0);
    await env.ownerDb('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: 'C-3' }).update({ codice_esterno: 'EXT-C3' });
    await env.ownerDb('wallets').insert({ id: randomUUID(), cod_azienda: tenant, cod_anagrafe: 'C-1', rete: 'ethereum', indirizzo: WALLET_C1.toUpperCase().replace('0X', '0x'), tipo: 'self_hosted', stato: 'verificato' });
    await env.ownerDb('travel_rule_transazioni').insert({
      id: randomUUID(), cod_azienda: tenant, cod_transazione: 'TRR-900001', direzione: 'in_uscita', cod_anagrafe: 'C-2', asset: 'BTC', importo: '0.1',
      indirizzo_originatore: WALLET_C2, indirizzo_beneficiario: 'bc1qsomeoneelse000000000000000000000000', tipo_wallet: 'vasp', ivms101: '{}',
      workflow_id: `travel-rule:${tenant}:x`, created_by: 'test',
    });
    [co, analyst, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'analyst'] }).then((u) => env.login(u)),
    ]);
  });

  describe('the named lists', () => {
    it('holds the reference lists as read-only versions and the tenant\'s own as versions it edits', async () => {
      const all = await viewer.get('/api/monitoring/liste');
      assert.equal(all.status, 200, all.text);
      const byCode = new Map(all.body.items.map((l: { codice: string }) => [l.codice, l]));
      const eu = byCode.get('paesi_alto_rischio') as { origine: string; versione_corrente: number; voci: number };
      assert.deepEqual([eu.origine, eu.versione_corrente], ['riferimento', 1]);
      assert.ok(eu.voci > 20);
      assert.ok(byCode.has('paesi_see') && byCode.has('paesi_gafi_black') && byCode.has('indirizzi_crypto_sanzionati'));
      const own = byCode.get('indirizzi_crypto_tenant') as { origine: string; voci: number };
      assert.deepEqual([own.origine, own.voci], ['tenant', 0]);
      const detail = await viewer.get('/api/monitoring/liste/paesi_alto_rischio');
      assert.ok(detail.body.elementi.some((e: { valore: string }) => e.valore === 'IR'));
      assert.equal((await co.put('/api/monitoring/liste/paesi_alto_rischio', { voci: ['IT'], motivazione: 'prova' })).status, 409);
      assert.equal((await outsider.get('/api/monitoring/liste/mia_lista_inesistente')).status, 404);

      const edited = await co.put('/api/monitoring/liste/indirizzi_crypto_tenant', { aggiungi: [LISTED, { valore: STRANGER, nota: 'segnalato da un partner' }], motivazione: 'Segnalazioni di marzo' });
      assert.equal(edited.status, 200, edited.text);
      assert.equal(edited.body.versione_corrente, 2);
      // ETH-family addresses are kept lower-cased (their case is a checksum only).
      assert.deepEqual(edited.body.elementi.map((e: { valore: string }) => e.valore).sort(), [LISTED.toLowerCase(), STRANGER].sort());
      const removed = await co.put('/api/monitoring/liste/indirizzi_crypto_tenant', { rimuovi: [STRANGER], motivazione: 'Verificato: non riconducibile' });
      assert.deepEqual([removed.body.versione_corrente, removed.body.voci], [3, 1]);
      assert.deepEqual(removed.body.versioni.map((v: { versione: number }) => v.versione), [3, 2, 1]);
    });

    it('creates a tenant list and refuses bad codes, entries and callers', async () => {
      const created = await co.post('/api/monitoring/liste', { codice: 'paesi_interni', nome: 'Paesi sotto osservazione interna', tipo: 'paesi', voci: ['ru', 'BY'] });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(created.body.elementi.map((e: { valore: string }) => e.valore), ['BY', 'RU']);
      const dup = await co.post('/api/monitoring/liste', { codice: 'paesi_see', nome: 'Copia', tipo: 'paesi' });
      assert.deepEqual([dup.status, paths(dup)], [422, ['codice']]);
      const bad = await co.post('/api/monitoring/liste', { codice: 'X', nome: 'ab', tipo: 'colori', voci: ['IT', 'ZZZ'] });
      assert.deepEqual([bad.status, paths(bad)], [422, ['codice', 'nome', 'tipo']]);
      const badEntry = await co.post('/api/monitoring/liste', { codice: 'paesi_b', nome: 'Paesi B', tipo: 'paesi', voci: ['IT', 'Italia'] });
      assert.deepEqual([badEntry.status, paths(badEntry)], [422, ['voci.1']]);
      assert.equal((await viewer.post('/api/monitoring/liste', { codice: 'paesi_c', nome: 'Paesi C', tipo: 'paesi' })).status, 403);
      assert.equal((await analyst.put('/api/monitoring/liste/paesi_interni', { aggiungi: ['FR'], motivazione: 'x' })).status, 403);
      const noReason = await co.put('/api/monitoring/liste/paesi_interni', { aggiungi: ['FR'] });
      assert.deepEqual([noReason.status, paths(noReason)], [422, ['motivazione']]);
    });
  });

  describe('events', () => {
    let alertDecision: string;

    before(async () => {
      const rule = await co.post('/api/monitoring/rules', ruleBody('kyt_lista_interna', {
        tipologia: 'crypto_liste_interne', punteggio: 80, indicatori: [],
        condizione: { campo: 'evento.indirizzo_controparte', op: 'in', valore: { lista: 'indirizzi_crypto_tenant' } },
      }));
      assert.equal(rule.status, 201, rule.text);
      await activateDraft(env, tenant, rule.body.bozza.id);
    });

    it('resolves the customer from their wallet, records the event and answers the decision; the same transfer again is the same event', async () => {
      const body = event();
      const r = await analyst.post('/api/kyt/events', body);
      assert.equal(r.status, 201, r.text);
      const [item] = r.body.eventi;
      assert.deepEqual([item.esito, item.evento.cod_anagrafe, item.evento.direzione, item.evento.risolto_da], ['inserito', 'C-1', 'entrata', 'wallet']);
      assert.match(item.evento.cod_evento, /^KYT-\d{7}$/);
      assert.deepEqual([item.decisione.stato, item.decisione.esito, item.decisione.regole_attivate], ['valutata', 'alert', ['kyt_lista_interna']]);
      assert.equal(item.evento.cod_decisione, item.decisione.cod_decisione);
      alertDecision = item.decisione.cod_decisione;
      const alert = await env.ownerDb('monitoring_alert').where({ id: item.decisione.alert[0].id }).first();
      assert.deepEqual([alert.origine, alert.tipologia, alert.cod_decisione], ['kyt', 'crypto_liste_interne', alertDecision]);
      const again = await analyst.post('/api/kyt/events', body);
      assert.equal(again.status, 200, again.text);
      assert.deepEqual([again.body.eventi[0].esito, again.body.eventi[0].evento.id, again.body.eventi[0].decisione.cod_decisione], ['gia_presente', item.evento.id, alertDecision]);
    });

    it('resolves a customer from their travel-rule transfers, or from the code or external code the sender gives', async () => {
      const tr = await analyst.post('/api/kyt/events', event({ chain: 'bitcoin', asset: 'btc', indirizzo_da: WALLET_C2, indirizzo_a: 'bc1qexternalreceiver0000000000000000000', importo: 0.05 }));
      assert.equal(tr.status, 201, tr.text);
      assert.deepEqual([tr.body.eventi[0].evento.cod_anagrafe, tr.body.eventi[0].evento.direzione, tr.body.eventi[0].evento.risolto_da, tr.body.eventi[0].evento.asset],
        ['C-2', 'uscita', 'travel_rule', 'BTC']);
      assert.equal(tr.body.eventi[0].decisione.esito, 'nessuna_anomalia');
      const batch = await analyst.post('/api/kyt/events', { eventi: [
        event({ indirizzo_a: STRANGER, indirizzo_da: '0x3333333333333333333333333333333333333333', codice_esterno: 'EXT-C3', direzione: 'entrata' }),
        event({ indirizzo_a: STRANGER, indirizzo_da: '0x4444444444444444444444444444444444444444', cod_anagrafe: 'C-3', direzione: 'uscita' }),
      ] });
      assert.equal(batch.status, 201, batch.text);
      assert.deepEqual(batch.body.eventi.map((e: { evento: { cod_anagrafe: string; risolto_da: string } }) => [e.evento.cod_anagrafe, e.evento.risolto_da]),
        [['C-3', 'codice_esterno'], ['C-3', 'cod_anagrafe']]);
    });

    it('refuses an event whose customer cannot be told, bad fields and another tenant\'s customer (422 naming the field); nothing is written', async () => {
      const before = Number((await env.ownerDb('kyt_eventi').where({ cod_azienda: tenant }).count('* as n'))[0]!.n);
      const nobody = await analyst.post('/api/kyt/events', event({ indirizzo_a: STRANGER }));
      assert.deepEqual([nobody.status, paths(nobody)], [422, ['eventi.0.cod_anagrafe']]);
      const both = await analyst.post('/api/kyt/events', event({ indirizzo_da: WALLET_C2, indirizzo_a: WALLET_C1 }));
      assert.deepEqual([both.status, paths(both)], [422, ['eventi.0.direzione']]);
      const namedNoSide = await analyst.post('/api/kyt/events', event({ indirizzo_a: STRANGER, cod_anagrafe: 'C-3' }));
      assert.deepEqual([namedNoSide.status, paths(namedNoSide)], [422, ['eventi.0.direzione']]);
      const fields = await analyst.post('/api/kyt/events', { eventi: [event({ chain: 'Ethereum Mainnet!', asset: '', importo: -1, importo_eur: '12.345', data_ora: '2999-01-01T00:00:00Z', hash: 'x' })] });
      assert.deepEqual([fields.status, paths(fields)], [422, ['eventi.0.asset', 'eventi.0.chain', 'eventi.0.data_ora', 'eventi.0.hash', 'eventi.0.importo', 'eventi.0.importo_eur']]);
      const foreign = await outsider.post('/api/kyt/events', event({ indirizzo_a: STRANGER, cod_anagrafe: 'C-2', direzione: 'entrata' }));
      assert.deepEqual([foreign.status, paths(foreign)], [422, ['eventi.0.cod_anagrafe']]);
      const foreignExt = await outsider.post('/api/kyt/events', event({ indirizzo_a: STRANGER, codice_esterno: 'EXT-C3', direzione: 'entrata' }));
      assert.deepEqual([foreignExt.status, paths(foreignExt)], [422, ['eventi.0.codice_esterno']]);
      const mixed = await analyst.post('/api/kyt/events', { eventi: [event(), event({ indirizzo_a: STRANGER })] });
      assert.deepEqual([mixed.status, paths(mixed)], [422, ['eventi.1.cod_anagrafe']]);
      assert.equal(Number((await env.ownerDb('kyt_eventi').where({ cod_azienda: tenant }).count('* as n'))[0]!.n), before);
      assert.equal((await viewer.post('/api/kyt/events', event())).status, 403);
      // A day of the right shape that is on no calendar is the query's 422, not the database's 500.
      const noDay = await analyst.get('/api/kyt/events?al=0000-00-00&dal=2026-02-30');
      assert.deepEqual([noDay.status, paths(noDay)], [422, ['al', 'dal']]);
    });

    it('lists the events and the KYT alerts of the tenant only, with their filters', async () => {
      const list = await viewer.get('/api/kyt/events?cod_anagrafe=C-3');
      assert.equal(list.status, 200, list.text);
      assert.equal(list.body.items.length, 2);
      assert.ok(list.body.items.every((e: { cod_anagrafe: string }) => e.cod_anagrafe === 'C-3'));
      assert.equal((await viewer.get('/api/kyt/events?chain=bitcoin')).body.items.length, 1);
      assert.equal((await viewer.get('/api/kyt/events?dal=2026-03-10&al=2026-03-10')).body.items.length, 4);
      assert.deepEqual(paths(await viewer.get('/api/kyt/events?dal=2026-03-11&al=2026-03-10')), ['al']);
      assert.equal((await outsider.get('/api/kyt/events')).body.items.length, 0);
      const alerts = await viewer.get('/api/kyt/alerts');
      assert.equal(alerts.status, 200, alerts.text);
      assert.equal(alerts.body.items.length, 1);
      assert.equal(alerts.body.items[0].cod_decisione, alertDecision);
      assert.equal((await outsider.get('/api/kyt/alerts')).body.items.length, 0);
      assert.deepEqual(paths(await viewer.get('/api/kyt/alerts?stato=aperto')), ['stato']);
    });

    it('escalates the KYT alert of a decision into a case once; another tenant\'s decision is a 404, a second escalation a 409', async () => {
      assert.equal((await viewer.post(`/api/kyt/alerts/${alertDecision}/escalate`, {})).status, 403);
      assert.equal((await outsider.post(`/api/kyt/alerts/${alertDecision}/escalate`, {})).status, 404);
      assert.equal((await analyst.post('/api/kyt/alerts/DEC-20260310-0000000000000/escalate', {})).status, 404);
      const bad = await analyst.post(`/api/kyt/alerts/${alertDecision}/escalate`, { priorita: 'urgentissima' });
      assert.deepEqual([bad.status, paths(bad)], [422, ['priorita']]);
      const r = await analyst.post(`/api/kyt/alerts/${alertDecision}/escalate`, { motivazione: 'Esposizione a un indirizzo della lista interna', priorita: 'alta' });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.alert.stato, 'escalated');
      const kase = await env.ownerDb('cases').where({ cod_azienda: tenant, id: r.body.caso.id }).first();
      assert.deepEqual([kase.priorita, kase.cod_anagrafe], ['alta', 'C-1']);
      const again = await analyst.post(`/api/kyt/alerts/${alertDecision}/escalate`, {});
      assert.equal(again.status, 409, again.text);
    });

    it('writes events sent at once together, each request answered as if alone: the same transfer in two is one event with one decision, an unknown customer refused on its own', async () => {
      const twice = event({ data_ora: '2026-03-11T09:00:00Z' });
      const answers = await Promise.all([
        ...Array.from({ length: 6 }, () => analyst.post('/api/kyt/events', event({ importo_eur: 50, data_ora: '2026-03-11T10:00:00Z' }))),
        analyst.post('/api/kyt/events', twice), analyst.post('/api/kyt/events', twice),
      ]);
      for (const a of answers.slice(0, 6)) {
        assert.equal(a.status, 201, a.text);
        assert.equal(a.body.eventi[0].decisione.stato, 'valutata', a.text);
      }
      const dup = answers.slice(6).map((a) => a.body.eventi[0]);
      assert.deepEqual(dup.map((d) => d.esito).sort(), ['gia_presente', 'inserito']);
      assert.equal(dup[0].evento.id, dup[1].evento.id);
      assert.equal(dup[0].decisione.cod_decisione, dup[1].decisione.cod_decisione, 'both answer the one decision');
      assert.equal(Number((await env.ownerDb('monitoring_decisioni').where({ cod_azienda: tenant, evento_id: dup[0].evento.id }).count('* as n'))[0]!.n), 1);

      const mixed = await Promise.all([
        ...Array.from({ length: 4 }, () => analyst.post('/api/kyt/events', event({ importo_eur: 60 }))),
        analyst.post('/api/kyt/events', { eventi: [event(), event({ indirizzo_a: STRANGER, cod_anagrafe: 'C-404', direzione: 'entrata' })] }),
      ]);
      for (const a of mixed.slice(0, 4)) assert.equal(a.status, 201, a.text);
      assert.equal(mixed[4]!.status, 422, mixed[4]!.text);
      assert.ok(paths(mixed[4]!).every((p) => p.startsWith('eventi.1.')), mixed[4]!.text);
    });
  });
});
