import type { Knex } from 'knex';
import assert from 'node:assert/strict';
import type { Deps } from '../../src/deps';
import { evaluateMovements, evaluateMovementsInTransaction, PENDING_UNAVAILABLE, type MovementEvaluator } from '../../src/kit/evaluators';
import { evaluateEvent } from '../../src/domains/monitoring/engine';
import { decisionOutcome, hitKey, toCandidates } from '../../src/domains/monitoring/evaluation/candidates';
import { dayOfDecisionCode, decodeRules, encodeRules, newDecisionCode } from '../../src/domains/monitoring/evaluation/decisions.codec';
import { canonicalJson, ruleSetFor, versionHash, type RuleVersionData } from '../../src/domains/monitoring/evaluation/rule-set';
import { kytMovement } from '../../src/domains/monitoring/evaluation/store.platform';
import { resolveEvent, romeDayTime, type Holder } from '../../src/domains/monitoring/kyt/kyt.resolve';
import type { KytEventInput } from '../../src/domains/monitoring/kyt/kyt.schemas';
import { normaliseEntry } from '../../src/domains/monitoring/lists/lists.schemas';

const version = (over: Partial<RuleVersionData> = {}): RuleVersionData => ({
  versione_id: 'v-cash', cod_regola: 'contanti_30g', nome: 'Contanti in 30 giorni', tipologia: 'contanti_oltre_soglia', versione: 1,
  condizione: { tutti: [{ campo: 'evento.contanti', op: 'eq', valore: true }, { aggregato: { fn: 'sum', finestra_giorni: 30, contanti: true }, op: 'gte', valore: 10_000 }] },
  ambito: 'evento', livello: 'cliente', punteggio: 60, esito: 'alert', finestra_dedup_giorni: 30, indicatori: ['11.1'], ...over,
});
const profile = { cod_anagrafe: 'C-1', tipo_soggetto: 'persona_fisica' as const, rapporti: [{ cod_rapporto: 'R-1', intestatari: ['C-1'] }] };
const move = (id: string, day: string, importo: number, contanti = true) => ({
  id, cod_anagrafe: 'C-1', cod_rapporto: 'R-1', data_operazione: day, importo_eur: importo, segno: 'entrata' as const, contanti,
});
const lists = { paesi_alto_rischio: { versione: 'v1', voci: new Set(['IR']) } };

describe('monitoring evaluation paths (pure parts)', () => {
  describe('rule sets', () => {
    it('gives the engine an observing rule as an alerting one and leaves out a version it cannot take, naming why', () => {
      const set = ruleSetFor('T1', [
        version(),
        version({ versione_id: 'v-obs', cod_regola: 'importo_alto', esito: 'osserva', condizione: { campo: 'evento.importo_eur', op: 'gte', valore: 5_000 } }),
        version({ versione_id: 'v-bad', cod_regola: 'lista_sparita', condizione: { campo: 'evento.controparte_paese', op: 'in', valore: { lista: 'lista_che_non_esiste' } } }),
      ], lists);
      assert.deepEqual(set.regole.versioni.map((v) => v.id), ['v-cash', 'v-obs']);
      assert.deepEqual([...set.osserva], ['v-obs']);
      assert.equal(set.escluse.length, 1);
      assert.equal(set.escluse[0]!.cod_regola, 'lista_sparita');
      assert.match(set.escluse[0]!.motivo, /lista_che_non_esiste|lista/);
      assert.equal(ruleSetFor('T1', [version(), version({ versione_id: 'v-obs', cod_regola: 'importo_alto', esito: 'osserva', condizione: { campo: 'evento.importo_eur', op: 'gte', valore: 5_000 } }),
        version({ versione_id: 'v-bad', cod_regola: 'lista_sparita', condizione: { campo: 'evento.controparte_paese', op: 'in', valore: { lista: 'lista_che_non_esiste' } } })], lists), set, 'the same versions and lists: the same prepared set');
    });

    it('knows a draft by its content: the same id edited is prepared again', () => {
      const before = ruleSetFor('T3', [version({ versione_id: 'v-draft' })], lists, { drafts: true });
      const edited = ruleSetFor('T3', [version({ versione_id: 'v-draft', punteggio: 90 })], lists, { drafts: true });
      assert.notEqual(before, edited);
      assert.equal(edited.regole.versioni[0]!.punteggio, 90);
      assert.equal(ruleSetFor('T3', [version({ versione_id: 'v-draft', punteggio: 90 })], lists, { drafts: true }), edited);
    });

    it('tells real time the look-back of the event rules alone, the daily rules\' being longer', () => {
      const set = ruleSetFor('T4', [
        version(),
        version({ versione_id: 'v-dorm', cod_regola: 'dormiente', ambito: 'giornaliero',
          condizione: { aggregato: { fn: 'ratio_history', finestra_giorni: 30, storico_giorni: 730 }, op: 'exists' } }),
      ], lists);
      assert.equal(set.regole.giorni_storico, 760);
      assert.equal(set.regole.giorni_storico_evento, 30);
      assert.equal(ruleSetFor('T4', [version({ condizione: { campo: 'evento.contanti', op: 'eq', valore: true } })], lists).regole.giorni_storico_evento, 1,
        'an event rule without aggregates reads the event\'s day only');
    });

    it('hashes a version\'s content whatever the order of keys and indicators, and changes with it', () => {
      const a = version({ indicatori: ['11.1', '9.2'] });
      const b = { ...version({ indicatori: ['9.2', '11.1'] }), condizione: JSON.parse(canonicalJson(a.condizione)) };
      assert.equal(versionHash(a), versionHash(b));
      assert.notEqual(versionHash(a), versionHash(version({ punteggio: 61 })));
      assert.notEqual(versionHash(a), versionHash(version({ condizione: { campo: 'evento.contanti', op: 'eq', valore: true } })));
      assert.equal(canonicalJson({ b: 1, a: [{ d: 2, c: undefined }] }), '{"a":[{"d":2}],"b":1}');
    });
  });

  describe('decisions', () => {
    const set = ruleSetFor('T2', [version(), version({ versione_id: 'v-obs', cod_regola: 'importo_alto', esito: 'osserva', condizione: { campo: 'evento.importo_eur', op: 'gte', valore: 5_000 } })], lists);
    const storico = [move('m1', '2026-03-01', 6_000), move('m2', '2026-03-10', 4_500)];
    const d = evaluateEvent(set.regole, { profilo: profile, storico, evento: storico[1]! });

    it('keeps every rule\'s outcome and reads in compact form, and decodes them as they were', () => {
      const encoded = encodeRules(d.regole, set.osserva, [{ versione_id: 'v-x', cod_regola: 'rotta', versione: 3, tipologia: 'altro', motivo: 'lista sconosciuta' }]);
      assert.deepEqual(encoded.map((r) => [r.r, r.f, r.x ?? null]), [['contanti_30g', 1, 'alert'], ['importo_alto', 0, null], ['rotta', 0, null]]);
      const decoded = decodeRules(JSON.parse(JSON.stringify(encoded)));
      assert.deepEqual(decoded[0]!.letti, d.regole[0]!.letti);
      assert.equal(decoded[0]!.letti.find((l) => l.path.startsWith('aggregato:'))!.valore, 10_500);
      assert.deepEqual(decoded[2]!.errore, { codice: 'regola_non_valida', messaggio: 'lista sconosciuta' });
    });

    it('counts only the rules that may alert in the outcome; an observing hit is recorded but raises nothing', () => {
      const first = evaluateEvent(set.regole, { profilo: profile, storico, evento: storico[0]! });
      assert.deepEqual(first.regole.filter((r) => r.vero).map((r) => r.cod_regola), ['importo_alto']);
      assert.deepEqual(decisionOutcome(first, set), { esito: 'nessuna_anomalia', punteggio: 0 });
      assert.deepEqual(toCandidates(first.candidati, set, { origine: 'tempo_reale', history: new Map(storico.map((m) => [m.id, m])) }), []);
      assert.deepEqual(decisionOutcome(d, set), { esito: 'alert', punteggio: 60 });
      const [c] = toCandidates(d.candidati, set, { origine: 'giornaliero', history: new Map(storico.map((m) => [m.id, m])) });
      assert.equal(c!.chiaveRiscontro, 'ev:m2:contanti_30g:1');
      assert.deepEqual(c!.movimenti, [{ id: 'm1', data_operazione: '2026-03-01' }, { id: 'm2', data_operazione: '2026-03-10' }]);
      assert.equal((c!.dataRilevazione as Date).toISOString(), '2026-03-10T20:00:00.000Z', 'a batch hit is dated the evening of its day');
      assert.equal(hitKey({ ...d.candidati[0]!, movimento_id: null, cod_rapporto: null }), 'gg:2026-03-10:C-1:-:contanti_30g:1');
    });

    it('names each decision with its day, so a code finds its partition', () => {
      const code = newDecisionCode('2026-03-10');
      assert.match(code, /^DEC-20260310-[0-9A-Z]{13}$/);
      assert.notEqual(code, newDecisionCode('2026-03-10'));
      assert.equal(dayOfDecisionCode(code), '2026-03-10');
      assert.equal(dayOfDecisionCode('DEC-20260230-AAAAAAAAAAAAA'), null, 'no 30 February');
      assert.equal(dayOfDecisionCode('ALR-0000001'), null);
    });

    it('books a KYT event on its chain, its counterparty the address on the other side', () => {
      const m = kytMovement({ id: 'k1', cod_anagrafe: 'C-1', chain: 'ethereum', hash: '0xab', direzione: 'uscita', indirizzo_da: '0xme', indirizzo_a: '0xthem', asset: 'ETH', importo_eur: 10, giorno: '2026-03-10', ora: '10:00:00' });
      assert.deepEqual([m.cod_rapporto, m.segno, m.indirizzo_controparte, m.contanti], ['kyt:ethereum', 'uscita', '0xthem', false]);
    });
  });

  describe('KYT customers', () => {
    const e = (over: Partial<KytEventInput> = {}): KytEventInput => ({
      chain: 'ethereum', hash: '0x01', indirizzo_da: '0xAaAa000000000000000000000000000000000001', indirizzo_a: '0xbbbb000000000000000000000000000000000002',
      asset: 'ETH', importo: '1', importo_eur: 1, data_ora: '2026-03-10T10:00:00Z', ...over,
    });
    const holders = (entries: [string, Holder[]][]) => new Map(entries);
    const none = { byCode: new Set<string>(), byExternal: new Map<string, string>() };

    it('takes the customer from the address they hold: receiving is entrata, sending uscita; ETH addresses whatever their case', () => {
      const h = holders([['0xaaaa000000000000000000000000000000000001', [{ cod_anagrafe: 'C-1', fonte: 'travel_rule' }]]]);
      assert.deepEqual(resolveEvent(e(), h, none), { ok: true, value: { cod_anagrafe: 'C-1', direzione: 'uscita', risolto_da: 'travel_rule' } });
      const to = holders([['0xbbbb000000000000000000000000000000000002', [{ cod_anagrafe: 'C-2', fonte: 'wallet' }]]]);
      assert.deepEqual(resolveEvent(e(), to, none), { ok: true, value: { cod_anagrafe: 'C-2', direzione: 'entrata', risolto_da: 'wallet' } });
    });

    it('asks for what it cannot tell, on the field to fill in', () => {
      const both = holders([
        ['0xaaaa000000000000000000000000000000000001', [{ cod_anagrafe: 'C-1', fonte: 'wallet' }]],
        ['0xbbbb000000000000000000000000000000000002', [{ cod_anagrafe: 'C-2', fonte: 'wallet' }, { cod_anagrafe: 'C-3', fonte: 'wallet' }]],
      ]);
      const path = (r: ReturnType<typeof resolveEvent>) => (r.ok ? null : r.errors.map((x) => x.path));
      assert.deepEqual(path(resolveEvent(e(), holders([]), none)), ['cod_anagrafe']);
      assert.deepEqual(path(resolveEvent(e(), both, none)), ['direzione']);
      assert.deepEqual(path(resolveEvent(e({ direzione: 'entrata' }), both, none)), ['indirizzo_a'], 'an address two customers hold');
      assert.deepEqual(resolveEvent(e({ direzione: 'uscita' }), both, none), { ok: true, value: { cod_anagrafe: 'C-1', direzione: 'uscita', risolto_da: 'wallet' } });
      assert.deepEqual(path(resolveEvent(e({ cod_anagrafe: 'C-9' }), holders([]), none)), ['cod_anagrafe']);
      const named = { byCode: new Set(['C-9']), byExternal: new Map([['EXT-1', 'C-8']]) };
      assert.deepEqual(path(resolveEvent(e({ cod_anagrafe: 'C-9' }), holders([]), named)), ['direzione']);
      assert.deepEqual(path(resolveEvent(e({ cod_anagrafe: 'C-9', codice_esterno: 'EXT-1', direzione: 'entrata' }), holders([]), named)), ['codice_esterno']);
      assert.deepEqual(resolveEvent(e({ codice_esterno: 'EXT-1', direzione: 'entrata' }), holders([]), named),
        { ok: true, value: { cod_anagrafe: 'C-8', direzione: 'entrata', risolto_da: 'codice_esterno' } });
    });

    it('dates an event in Rome: the day and time the tenant lives it, summer and winter', () => {
      assert.deepEqual(romeDayTime('2026-03-10T23:30:00Z'), { giorno: '2026-03-11', ora: '00:30:00' });
      assert.deepEqual(romeDayTime('2026-07-10T22:15:05Z'), { giorno: '2026-07-11', ora: '00:15:05' });
      assert.deepEqual(romeDayTime('2026-07-10T10:00:00+02:00'), { giorno: '2026-07-10', ora: '10:00:00' });
    });
  });

  describe('named lists', () => {
    it('normalises entries by the list\'s type and refuses what is not one', () => {
      assert.deepEqual(normaliseEntry('paesi', ' ir '), { ok: true, valore: 'IR' });
      assert.equal(normaliseEntry('paesi', 'Italia').ok, false);
      assert.deepEqual(normaliseEntry('indirizzi_crypto', '0xAbCd000000000000000000000000000000000001'), { ok: true, valore: '0xabcd000000000000000000000000000000000001' });
      assert.deepEqual(normaliseEntry('indirizzi_crypto', 'bc1QmixedCase0000000000'), { ok: true, valore: 'bc1QmixedCase0000000000' }, 'bech32/base58 keep their case');
      assert.equal(normaliseEntry('indirizzi_crypto', 'non un indirizzo').ok, false);
      assert.deepEqual(normaliseEntry('controparti', '  Rossi   srl '), { ok: true, valore: 'ROSSI SRL' });
    });
  });

  describe('the movements\' evaluator (src/kit/evaluators.ts)', () => {
    const deps = { logger: { warn: () => undefined } } as unknown as Deps;
    const p = { codAzienda: 'T', actor: 'u', movimenti: [{ id: 'm1', data_operazione: '2026-03-10' }, { id: 'm2', data_operazione: '2026-03-10' }] };
    const area = (evaluate: MovementEvaluator['evaluate']) => ({ evaluators: { movements: { evaluate } } });

    it('answers nothing when no area evaluates movements, pending when the evaluator fails or leaves one out', async () => {
      assert.equal(await evaluateMovements([{}], deps, p), null);
      const failed = await evaluateMovements([area(() => Promise.reject(new Error('down')))], deps, p);
      assert.deepEqual([...failed!.values()], [{ stato: 'in_attesa', motivo: PENDING_UNAVAILABLE }, { stato: 'in_attesa', motivo: PENDING_UNAVAILABLE }]);
      const decided = { stato: 'valutata' as const, cod_decisione: 'DEC-20260310-0000000000001', esito: 'alert' as const, punteggio: 60, regole_attivate: ['x'], alert: [] };
      const partial = await evaluateMovements([area(async () => new Map([['m1', decided]]))], deps, p);
      assert.deepEqual(partial!.get('m1'), decided);
      assert.equal(partial!.get('m2')!.stato, 'in_attesa');
    });

    it('leaves to after the commit an evaluator that does not evaluate in the transaction, and opens its savepoint for one that does', async () => {
      const untouched = new Proxy({}, { get: () => { throw new Error('the transaction is not used'); } }) as Knex.Transaction;
      assert.equal(await evaluateMovementsInTransaction([{}], untouched, deps, p), undefined);
      assert.equal(await evaluateMovementsInTransaction([area(async () => new Map())], untouched, deps, p), undefined);
      const decided = { stato: 'valutata' as const, cod_decisione: 'DEC-20260310-0000000000002', esito: 'nessuna_anomalia' as const, punteggio: 0, regole_attivate: [], alert: [] };
      let savepoints = 0;
      const trx = { transaction: (fn: (sp: Knex.Transaction) => Promise<unknown>) => { savepoints++; return fn(trx as unknown as Knex.Transaction); } } as unknown as Knex.Transaction;
      const inTx = { evaluators: { movements: { evaluate: async () => new Map(), inTransaction: async () => new Map([['m1', decided]]) } } };
      const r = await evaluateMovementsInTransaction([inTx], trx, deps, p);
      assert.equal(savepoints, 1);
      assert.deepEqual([r!.get('m1'), r!.get('m2')!.stato], [decided, 'in_attesa']);
      const failing = { evaluators: { movements: { evaluate: async () => new Map(), inTransaction: () => Promise.reject(new Error('down')) } } };
      assert.deepEqual([...(await evaluateMovementsInTransaction([failing], trx, deps, p))!.values()].map((d) => d.stato), ['in_attesa', 'in_attesa']);
    });
  });
});
