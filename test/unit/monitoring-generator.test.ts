import assert from 'node:assert/strict';
import { measureQuality, withinWindow } from '../../bench/monitoring/quality';
import type { RiferimentiQualita } from '../../bench/monitoring/quality-reference';
import { compareMovements } from '../../src/domains/monitoring/engine';
import { generaAnno, pianoAnno, TIPOLOGIE_PIANTATE, type OpzioniAnno } from '../../src/domains/monitoring/generator';
import type { RuleVersionData } from '../../src/domains/monitoring/evaluation/rule-set';

/**
 * The synthetic labelled year (docs/monitoring.md, "The generator and the seed"): deterministic
 * from its seed, labels that point at real movements inside the period, every typology planted,
 * and a clean population that holds the legitimate look-alikes the rules must not alert on.
 */

const SANZIONATI = [{ asset: 'XBT', indirizzo: '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h' }, { asset: 'ETH', indirizzo: '0x8576aCC5C05D6Ce88f4e49bf65BdF0C62F91353C' }];
const OPTS: OpzioniAnno = { clienti: 400, seed: 'test', paesi_alto_rischio: ['KP', 'IR', 'MM', 'SY', 'YE'], indirizzi_sanzionati: SANZIONATI };
const year = generaAnno(OPTS);
const clean = year.clienti.filter((c) => !c.etichette.length);

describe('monitoring generator: the labelled year', () => {
  it('is the same year for the same seed, and another for another seed', () => {
    const again = generaAnno({ ...OPTS, clienti: 60 });
    assert.deepEqual(again.clienti, year.clienti.slice(0, 60).map((c) => again.clienti.find((x) => x.profilo.cod_anagrafe === c.profilo.cod_anagrafe)));
    assert.deepEqual(pianoAnno(OPTS).cliente(123), year.clienti[123]);
    const other = generaAnno({ ...OPTS, clienti: 60, seed: 'other' });
    assert.notDeepEqual(other.clienti.map((c) => c.movimenti.length), again.clienti.map((c) => c.movimenti.length));
  });

  it('covers the history months and the labelled year, each history ordered with unique ids', () => {
    assert.equal(year.dal, '2025-01-01');
    assert.equal(year.al, '2025-12-31');
    assert.equal(year.storico_dal, '2024-07-01');
    for (const c of year.clienti) {
      const ids = new Set(c.movimenti.map((m) => m.id));
      assert.equal(ids.size, c.movimenti.length, c.profilo.cod_anagrafe);
      const sorted = [...c.movimenti].sort(compareMovements);
      assert.deepEqual(c.movimenti.map((m) => m.id), sorted.map((m) => m.id));
      const rapporti = new Set(c.profilo.rapporti.map((r) => r.cod_rapporto));
      for (const m of c.movimenti) {
        assert.ok(m.data_operazione >= year.storico_dal && m.data_operazione <= year.al, m.id);
        assert.ok(m.importo_eur > 0 && Math.abs(Math.round(m.importo_eur * 100) - m.importo_eur * 100) < 1e-6, `${m.id} ${m.importo_eur}`);
        assert.ok(rapporti.has(m.cod_rapporto), `${m.id} on ${m.cod_rapporto}`);
        assert.equal(m.cod_anagrafe, c.profilo.cod_anagrafe);
      }
    }
  });

  it('plants every typology but altro, each with labels that point at its movements inside the year', () => {
    const planted = new Set(year.etichette.map((e) => e.tipologia));
    assert.deepEqual([...planted].sort(), [...TIPOLOGIE_PIANTATE].sort());
    assert.ok(!TIPOLOGIE_PIANTATE.includes('altro' as never));
    for (const t of TIPOLOGIE_PIANTATE) assert.equal(year.etichette.filter((e) => e.tipologia === t).length, 4, t);
    for (const e of year.etichette) {
      const c = year.clienti.find((x) => x.profilo.cod_anagrafe === e.cod_anagrafe)!;
      const movs = e.movimenti.map((id) => c.movimenti.find((m) => m.id === id));
      assert.ok(movs.every(Boolean), `${e.tipologia} of ${e.cod_anagrafe} names a movement that does not exist`);
      const days = movs.map((m) => m!.data_operazione).sort();
      assert.equal(e.dal, days[0]);
      assert.equal(e.al, days[days.length - 1]);
      assert.ok(e.dal >= year.dal && e.al <= year.al, `${e.tipologia} ${e.dal}..${e.al}`);
    }
  });

  it('plants what each typology means', () => {
    const movsOf = (t: string) => year.etichette.filter((e) => e.tipologia === t).map((e) => {
      const c = year.clienti.find((x) => x.profilo.cod_anagrafe === e.cod_anagrafe)!;
      return { c, movs: c.movimenti.filter((m) => e.movimenti.includes(m.id)) };
    });
    for (const { c, movs } of movsOf('incoerenza_profilo_contanti')) {
      assert.equal(c.profilo.uso_contanti_atteso, 'nessuno');
      assert.ok(movs.every((m) => m.contanti));
    }
    for (const { movs } of movsOf('crypto_indirizzi_sanzionati')) assert.ok(movs.every((m) => SANZIONATI.some((a) => a.indirizzo === m.indirizzo_controparte)));
    for (const { movs } of movsOf('crypto_liste_interne')) assert.ok(movs.every((m) => year.indirizzi_tenant.includes(m.indirizzo_controparte!)));
    for (const { movs } of movsOf('paesi_alto_rischio')) {
      assert.ok(movs.every((m) => OPTS.paesi_alto_rischio.includes(m.controparte_paese ?? m.controparte_conto!.slice(0, 2))));
    }
    for (const { movs } of movsOf('fan_out')) assert.ok(new Set(movs.map((m) => m.controparte_conto)).size >= 10);
    for (const { c, movs } of movsOf('riattivazione_dormiente')) {
      const first = movs.map((m) => m.data_operazione).sort()[0]!;
      const before = c.movimenti.filter((m) => m.data_operazione < first).map((m) => m.data_operazione).sort().pop();
      assert.ok(!before || (Date.parse(first) - Date.parse(before)) / 86_400_000 >= 180, `${c.profilo.cod_anagrafe} silent only since ${before}`);
    }
  });

  it('keeps ordinary counterparties out of the high-risk countries', () => {
    for (const c of clean) for (const m of c.movimenti) assert.ok(!OPTS.paesi_alto_rischio.includes(m.controparte_paese ?? ''), `${m.id} ${m.controparte_paese}`);
  });

  it('gives customers declared profiles in realistic proportions', () => {
    const share = (t: string) => year.clienti.filter((c) => c.profilo.tipo_soggetto === t).length / year.clienti.length;
    assert.ok(share('persona_fisica') > 0.6 && share('persona_fisica') < 0.85, String(share('persona_fisica')));
    assert.ok(share('societa') > 0.05 && share('ditta_individuale') > 0.05);
    for (const c of year.clienti) {
      assert.ok(c.profilo.data_onboarding && c.profilo.volume_mensile_atteso_eur! > 0 && c.profilo.uso_contanti_atteso, c.profilo.cod_anagrafe);
      if (c.profilo.tipo_soggetto !== 'persona_fisica') assert.match(c.profilo.ateco ?? '', /^\d{2}\.\d{1,2}$/);
    }
    assert.ok(year.clienti.some((c) => c.profilo.data_onboarding! >= year.dal), 'some customers are onboarded during the year');
  });

  it('holds the legitimate look-alikes among the clean customers', () => {
    const of = (k: string) => clean.filter((c) => c.comportamento === k);
    // Employers pay wages to many people every month (fan-out without anything new).
    assert.ok(of('datore_lavoro').some((c) => new Set(c.movimenti.filter((m) => m.causale?.startsWith('Stipendio') && m.data_operazione.startsWith('2025-03')).map((m) => m.controparte_conto)).size >= 10));
    // Landlords receive rent in round amounts.
    assert.ok(of('locatore').some((c) => c.movimenti.filter((m) => m.causale === 'Canone locazione' && m.segno === 'entrata' && m.importo_eur % 500 === 0).length >= 6));
    // Shops that declared high cash deposit it, over 10,000 a month.
    assert.ok(of('negozio_contanti').some((c) => c.profilo.uso_contanti_atteso === 'alto'
      && c.movimenti.filter((m) => m.contanti && m.segno === 'entrata' && m.data_operazione.startsWith('2025-05')).reduce((s, m) => s + m.importo_eur, 0) > 10_000));
    // A house bought from savings or a mortgage: one large payment, money in and out within days.
    assert.ok(of('acquisto_casa').some((c) => c.movimenti.some((m) => m.segno === 'uscita' && m.importo_eur > 50_000 && m.causale === 'Saldo prezzo rogito')));
    assert.ok(of('acquisto_auto').length && of('investitore_cripto').length && of('professionista').length && of('saltuario').length);
    // A seasonal business earns most in summer.
    const stag = of('stagionale')[0]!;
    const inMonth = (mm: string) => stag.movimenti.filter((m) => m.segno === 'entrata' && m.data_operazione.startsWith(`2025-${mm}`)).reduce((s, m) => s + m.importo_eur, 0);
    assert.ok(inMonth('08') > 4 * inMonth('02'), `${inMonth('08')} vs ${inMonth('02')}`);
  });

  it('measures quality: recall within the window and false alerts on clean customers', () => {
    const riferimenti: RiferimentiQualita = {
      liste: { indirizzi_crypto_sanzionati: { versione: 'v1', voci: SANZIONATI.map((a) => a.indirizzo.startsWith('0x') ? a.indirizzo.toLowerCase() : a.indirizzo) } },
      paesi_alto_rischio: OPTS.paesi_alto_rischio as string[], paesi_da_evitare: [], indirizzi_sanzionati: SANZIONATI,
    };
    const rule = (cod: string, tipologia: string, condizione: RuleVersionData['condizione']): RuleVersionData => ({
      versione_id: `t:${cod}`, cod_regola: cod, nome: cod, tipologia, versione: 1, condizione, ambito: 'evento', livello: 'cliente', punteggio: 50,
      esito: 'alert', finestra_dedup_giorni: 30, indicatori: [],
    });
    const m = measureQuality({
      clienti: 150, seed: 'q', riferimenti, regole: [
        rule('sanzionati', 'crypto_indirizzi_sanzionati', { campo: 'evento.indirizzo_controparte', op: 'in', valore: { lista: 'indirizzi_crypto_sanzionati' } }),
        // A textbook rule: every cash operation of 1,000 or more. It alerts the cash shops (false alerts).
        rule('contanti', 'contanti_oltre_soglia', { tutti: [{ campo: 'evento.contanti', op: 'eq', valore: true }, { campo: 'evento.importo_eur', op: 'gte', valore: 1000 }] }),
      ],
    });
    const recall = Object.fromEntries(m.recall.map((r) => [r.tipologia, r]));
    assert.equal(recall.crypto_indirizzi_sanzionati!.piantati, 2);
    assert.equal(recall.crypto_indirizzi_sanzionati!.recall, 1);
    assert.equal(recall.contanti_oltre_soglia!.recall, 1);
    assert.equal(recall.fan_in!.allertati, 0, 'no rule of the typology: nothing counts');
    assert.equal(m.clienti_puliti, 150 - 28);
    assert.ok(m.alert_falsi > 0 && m.falsi_per_regola.every((r) => r.cod_regola === 'contanti'), JSON.stringify(m.falsi_per_regola));
    assert.equal(m.falsi_per_10000_clienti_anno, +(m.alert_falsi * 10_000 / m.clienti_puliti / (365 / 365)).toFixed(1));
    assert.ok(m.alert_totali >= m.alert_falsi);
  });

  it('counts a hit within a pattern only on its customer, typology and days', () => {
    const e = { cod_anagrafe: 'A', tipologia: 'fan_in' as const, dal: '2025-03-01', al: '2025-03-10', movimenti: [] };
    assert.ok(withinWindow({ cod_anagrafe: 'A', tipologia: 'fan_in', data_rilevazione: '2025-03-10' }, e));
    assert.ok(!withinWindow({ cod_anagrafe: 'A', tipologia: 'fan_in', data_rilevazione: '2025-03-11' }, e));
    assert.ok(!withinWindow({ cod_anagrafe: 'A', tipologia: 'fan_out', data_rilevazione: '2025-03-05' }, e));
    assert.ok(!withinWindow({ cod_anagrafe: 'B', tipologia: 'fan_in', data_rilevazione: '2025-03-05' }, e));
  });
});
