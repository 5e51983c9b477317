import assert from 'node:assert/strict';
import { addDays } from '../../src/domains/monitoring/engine/engine.dates';
import { prepareRules, validateMonitoringCondition as engineValidation } from '../../src/domains/monitoring/engine';
import { toEngineVersion } from '../../src/domains/monitoring/evaluation/rule-set';
import { validateMonitoringCondition } from '../../src/domains/monitoring/monitoring.conditions';
import { unknownIndicatori } from '../../src/domains/monitoring/monitoring.indicators';
import { TIPOLOGIE } from '../../src/domains/monitoring/monitoring.typologies';
import { createRuleSchema } from '../../src/domains/monitoring/rules/rules.schemas';
import { MODELLI_MONITORAGGIO, templateRuleVersions } from '../../src/domains/monitoring/templates';
import { alertsOf, firesOn, LISTE, mov, ordinary, profilo, series } from './monitoring-templates.fixture';

const base = () => ordinary('2024-07-01', 18);
const none = (cod: string, ...args: Parameters<typeof alertsOf> extends [string, ...infer R] ? R : never) => assert.deepEqual(alertsOf(cod, ...args), [], `${cod} raises nothing`);

/** A house bought with savings moved from the customer's deposit account: the deposit, then the deed. */
const houseFromSavings = () => [
  ...base(),
  mov('2025-04-10', 20_000, 'uscita', { causale: 'Caparra confirmatoria', controparte_nome: 'Venditore', controparte_conto: 'IT40S0542811101000000654321' }),
  mov('2025-06-05', 150_000, 'entrata', { canale: 'interno', causale: 'Giroconto da deposito titoli', controparte_nome: 'Deposito titoli intestato' }),
  mov('2025-06-10', 145_000, 'uscita', { causale: 'Saldo prezzo rogito', controparte_nome: 'Venditore', controparte_conto: 'IT40S0542811101000000654321' }),
  mov('2025-06-10', 5_000, 'uscita', { causale: 'Onorario notaio', controparte_nome: 'Studio notarile', controparte_conto: 'IT12A0306909606100000111222' }),
];

/** An employer paying the same twelve employees every month, and invoices from its regular customers. */
const payroll = () => {
  const out = [];
  for (let m = 0; m < 18; m++) {
    const start = addDays('2024-07-01', m * 30);
    for (let e = 0; e < 12; e++) out.push(mov(addDays(start, 27), 1_600 + e * 10, 'uscita', { causale: 'Stipendio', controparte_nome: `Dipendente ${e}`, controparte_conto: `IT00X0000000000000000${String(e).padStart(6, '0')}` }));
    for (let c = 0; c < 6; c++) out.push(mov(addDays(start, 3 + c * 4), 6_000, 'entrata', { causale: 'Incasso fattura', controparte_nome: `Cliente ${c}`, controparte_conto: `IT11Y0000000000000000${String(c).padStart(6, '0')}` }));
  }
  return out;
};
const employer = profilo({ tipo_soggetto: 'societa', ateco: '62.01', volume_mensile_atteso_eur: 60_000, uso_contanti_atteso: 'nessuno' });

/** A landlord collecting round rents from the same five tenants every month. */
const roundRents = () => [...base(), ...Array.from({ length: 18 }, (_, m) => Array.from({ length: 5 }, (__, t) =>
  mov(addDays('2024-07-01', m * 30 + t), 1_000, 'entrata', { causale: 'Canone locazione', controparte_nome: `Inquilino ${t}`, controparte_conto: `IT22Z0000000000000000${String(t).padStart(6, '0')}` }))).flat()];

/**
 * A beach establishment (declared low cash, 12,000 a month): from June to September cash takings of
 * 16,000 a month and guests' transfers, the rest of the year almost nothing; its history from `dal`.
 */
const seasonal = (dal: string) => {
  const out = [];
  for (let m = 0; m < 20; m++) {
    const month = ((4 + m) % 12) + 1;
    const start = `${2024 + Math.floor((4 + m) / 12)}-${String(month).padStart(2, '0')}-01`;
    if (start < dal) continue;
    const inSeason = month >= 6 && month <= 9;
    for (let k = 0; k < 4; k++) out.push(mov(addDays(start, 2 + k * 7), inSeason ? 4_000 : 150, 'entrata', { contanti: true, causale: 'Versamento incassi', canale: 'sportello' }));
    for (let g = 0; g < (inSeason ? 10 : 1); g++) out.push(mov(addDays(start, 1 + g * 3), 900, 'entrata', { causale: 'Saldo soggiorno', controparte_nome: `Ospite ${m}-${g}` }));
    out.push(mov(addDays(start, 15), inSeason ? 6_000 : 800, 'uscita', { causale: 'Fornitori', controparte_nome: 'Fornitore', controparte_conto: 'IT77F0000000000000000999999' }));
  }
  return out;
};
const beach = profilo({ tipo_soggetto: 'ditta_individuale', ateco: '93.29', volume_mensile_atteso_eur: 12_000, uso_contanti_atteso: 'basso' });

describe('monitoring templates', () => {
  describe('the catalogue', () => {
    it('has one template per typology but `altro`, each valid for the API, the engine and the indicators', () => {
      assert.deepEqual(MODELLI_MONITORAGGIO.map((m) => m.tipologia).sort(), TIPOLOGIE.filter((t) => t !== 'altro').sort());
      for (const m of MODELLI_MONITORAGGIO) {
        assert.deepEqual(validateMonitoringCondition(m.condizione), [], m.cod_regola);
        assert.deepEqual(engineValidation(m.condizione, Object.keys(LISTE)), [], m.cod_regola);
        assert.deepEqual(unknownIndicatori(m.indicatori), [], m.cod_regola);
        assert.ok(m.indicatori.length > 0 && m.descrizione.length > 50, m.cod_regola);
        const parsed = createRuleSchema.safeParse(m);
        assert.ok(parsed.success, `${m.cod_regola}: ${JSON.stringify(parsed.error?.issues)}`);
      }
    });

    it('gives the engine versions tpl:<code>, version 1, that prepare together', () => {
      const versions = templateRuleVersions();
      assert.deepEqual(versions.map((v) => v.versione_id), MODELLI_MONITORAGGIO.map((m) => `tpl:${m.cod_regola}`));
      assert.ok(versions.every((v) => v.versione === 1));
      const set = prepareRules(versions.map(toEngineVersion), LISTE);
      assert.equal(set.evento.length + set.giornaliere.length, MODELLI_MONITORAGGIO.length);
    });
  });

  describe('the look-alikes raise nothing', () => {
    it('an ordinary employee over a year and a half', () => {
      for (const m of MODELLI_MONITORAGGIO) none(m.cod_regola, profilo(), base());
    });
    it('a house bought from savings (one large outflow after a transfer from the own deposit account)', () => {
      for (const m of MODELLI_MONITORAGGIO) none(m.cod_regola, profilo(), houseFromSavings());
    });
    it('an employer paying its wages (fan-out to the same employees every month)', () => {
      for (const m of MODELLI_MONITORAGGIO) none(m.cod_regola, employer, payroll());
    });
    it('a landlord\'s rents in round amounts from the same tenants', () => {
      for (const m of MODELLI_MONITORAGGIO) none(m.cod_regola, profilo({ volume_mensile_atteso_eur: 8_000 }), roundRents());
    });
    it('a seasonal business in its season, judged against the same weeks of its previous season', () => {
      for (const m of MODELLI_MONITORAGGIO) none(m.cod_regola, beach, seasonal('2024-05-01'), '2025-06-01', '2025-09-30');
      // Without last year's season in its history (a customer since October 2024) the same season is unusual: the cash rule says so.
      assert.notDeepEqual(alertsOf('contanti_oltre_soglia', beach, seasonal('2024-10-01'), '2025-06-01', '2025-09-30'), []);
    });
  });

  describe('each typology', () => {
    it('strutturazione_contanti: three cash deposits just under 5,000 in days; not over the threshold, not a shop that always deposits so', () => {
      const split = [mov('2025-03-03', 4_800, 'entrata', { contanti: true }), mov('2025-03-07', 4_900, 'entrata', { contanti: true }), mov('2025-03-12', 4_750, 'entrata', { contanti: true })];
      assert.deepEqual(alertsOf('strutturazione_contanti', profilo(), [...base(), ...split]), ['2025-03-12']);
      assert.ok(firesOn('strutturazione_contanti', profilo(), [...base(), ...split], split[2]!), 'in real time, on the third');
      none('strutturazione_contanti', profilo(), [...base(), ...split.map((m) => ({ ...m, importo_eur: m.importo_eur + 400 }))]);
      const shop = profilo({ uso_contanti_atteso: 'alto', tipo_soggetto: 'ditta_individuale', ateco: '47.11', volume_mensile_atteso_eur: 40_000 });
      const takings = series('2024-07-01', 540, (i, day) => mov(day, i % 7 === 0 ? 4_600 + (i % 5) * 60 : 900 + (i % 9) * 150, 'entrata', { contanti: true }));
      none('strutturazione_contanti', shop, [...base(), ...takings]);
    });

    it('contanti_oltre_soglia: 12,500 in cash in a month from a customer declaring little cash; not a shop that declared it', () => {
      assert.deepEqual(alertsOf('contanti_oltre_soglia', profilo(), [...base(), mov('2025-04-02', 6_000, 'entrata', { contanti: true }), mov('2025-04-15', 6_500, 'entrata', { contanti: true })]), ['2025-04-15']);
      none('contanti_oltre_soglia', profilo(), [...base(), mov('2025-04-02', 4_000, 'entrata', { contanti: true }), mov('2025-04-15', 4_500, 'entrata', { contanti: true })]);
      const shop = profilo({ uso_contanti_atteso: 'alto', tipo_soggetto: 'ditta_individuale', ateco: '47.11', volume_mensile_atteso_eur: 60_000 });
      none('contanti_oltre_soglia', shop, [...base(), ...series('2024-07-01', 540, (_, day) => mov(day, 1_400, 'entrata', { contanti: true }))]);
    });

    it('picco_velocita: 25 transfers in five days against a handful a week', () => {
      const burst = Array.from({ length: 25 }, (_, i) => mov(addDays('2025-05-05', Math.floor(i / 5)), 150, i % 2 ? 'entrata' : 'uscita', { controparte_nome: `Controparte ${i % 3}` }));
      assert.deepEqual(alertsOf('picco_velocita', profilo(), [...base(), ...burst]), ['2025-05-07']);
      none('picco_velocita', profilo(), [...base(), ...burst.slice(0, 10)]);
    });

    it('picco_velocita: a busy customer\'s burst is told by its new counterparties, not by five times the usual count', () => {
      // The employer moves about 18 operations a month; 15 more in five days is about 4 times its usual week.
      const burst = (cp: (i: number) => string) => Array.from({ length: 15 }, (_, i) => mov(addDays('2025-05-05', Math.floor(i / 3)), 2_000, i % 2 ? 'entrata' : 'uscita',
        { causale: 'Bonifico', controparte_nome: cp(i), controparte_conto: `IT44C${cp(i).replace(/\W/g, '').padStart(22, '0')}` }));
      assert.deepEqual(alertsOf('picco_velocita', employer, [...payroll(), ...burst((i) => `Nuova ${i % 4}`)]), ['2025-05-09']);
      // The same number of operations with its own customers (instalments of known invoices): no alert.
      none('picco_velocita', employer, [...payroll(), ...burst((i) => `Cliente ${i % 4}`)].map((m) => (m.controparte_nome?.startsWith('Cliente ')
        ? { ...m, controparte_conto: `IT11Y0000000000000000${m.controparte_nome.slice(8).padStart(6, '0')}` } : m)));
    });

    it('picco_volume: 30,000 from a company to an employee earning 2,100', () => {
      assert.deepEqual(alertsOf('picco_volume', profilo(), [...base(), mov('2025-06-10', 30_000, 'entrata', { controparte_nome: 'Societa X', controparte_conto: 'IT33B0000000000000000777777' })]), ['2025-06-10']);
      none('picco_volume', profilo(), [...base(), mov('2025-06-10', 5_000, 'entrata', { controparte_nome: 'Societa X' })]);
    });

    it('own funds are named by channel or by causale: a mortgage disbursed on another channel is not a spike, a third party\'s bare giroconto is', () => {
      const car = (entrata: Parameters<typeof mov>[3]) => [...base(), mov('2025-06-05', 30_000, 'entrata', entrata),
        mov('2025-06-06', 30_000, 'uscita', { causale: 'Acquisto autovettura', controparte_nome: 'Concessionaria', controparte_conto: 'IT55D0000000000000000888888' })];
      none('picco_volume', profilo(), car({ canale: 'bonifico', causale: 'Erogazione finanziamento', controparte_nome: 'Banca' }));
      none('picco_volume', profilo(), car({ canale: 'OWN_ACCOUNT', causale: 'Trasferimento', controparte_nome: 'Conto deposito' }));
      assert.deepEqual(alertsOf('picco_volume', profilo(), car({ canale: 'bonifico', causale: 'Giroconto', controparte_nome: 'Societa X', controparte_conto: 'IT33B0000000000000000777777' })), ['2025-06-05']);
    });

    it('paesi_alto_rischio: a transfer to an Iranian IBAN or counterparty; not to Germany, not a small amount', () => {
      const iran = mov('2025-02-10', 3_000, 'uscita', { controparte_conto: 'IR580540105180021273113007', controparte_nome: 'Beneficiary' });
      assert.deepEqual(alertsOf('paesi_alto_rischio', profilo(), [...base(), iran]), ['2025-02-10']);
      assert.ok(firesOn('paesi_alto_rischio', profilo(), base(), mov('2025-02-11', 2_000, 'entrata', { controparte_paese: 'KP' })));
      none('paesi_alto_rischio', profilo(), [...base(), mov('2025-02-10', 3_000, 'uscita', { controparte_conto: 'DE89370400440532013000' })]);
      none('paesi_alto_rischio', profilo(), [...base(), mov('2025-02-10', 500, 'uscita', { controparte_conto: 'IR580540105180021273113007' })]);
    });

    it('importi_tondi: five round transfers to new counterparties in ten days', () => {
      const round = Array.from({ length: 5 }, (_, i) => mov(addDays('2025-07-01', i * 2), 2_000, 'uscita', { controparte_nome: `Nuovo ${i}`, controparte_conto: `IT44C0000000000000000${String(i).padStart(6, '0')}` }));
      assert.deepEqual(alertsOf('importi_tondi', profilo(), [...base(), ...round]), ['2025-07-07']);
      none('importi_tondi', profilo(), [...base(), ...round.slice(0, 3)]);
    });

    it('transito_rapido: three inflows from new payers each leaving the next day to new beneficiaries', () => {
      const cycles = [0, 7, 14].flatMap((d, i) => [
        mov(addDays('2025-09-01', d), 6_000, 'entrata', { controparte_nome: `Ordinante ${i}`, controparte_conto: `IT55D0000000000000000${String(i).padStart(6, '0')}` }),
        mov(addDays('2025-09-02', d), 5_800, 'uscita', { controparte_nome: `Beneficiario ${i}`, controparte_conto: `IT66E0000000000000000${String(i).padStart(6, '0')}` }),
      ]);
      assert.deepEqual(alertsOf('transito_rapido', profilo(), [...base(), ...cycles]), ['2025-09-09']);
      none('transito_rapido', profilo(), [...base(), ...cycles.filter((m) => m.segno === 'entrata')]);
    });

    it('fan_in: twelve payers never seen before in a week', () => {
      const payers = Array.from({ length: 12 }, (_, i) => mov(addDays('2025-10-01', Math.floor(i / 2)), 300, 'entrata', { controparte_nome: `Ordinante ${i}`, controparte_conto: `IT77F0000000000000000${String(i).padStart(6, '0')}` }));
      assert.deepEqual(alertsOf('fan_in', profilo(), [...base(), ...payers]), ['2025-10-04']);
      none('fan_in', profilo(), [...base(), ...payers.slice(0, 6)]);
    });

    it('fan_out: twelve new payees in a week from a person', () => {
      const payees = Array.from({ length: 12 }, (_, i) => mov(addDays('2025-10-01', Math.floor(i / 2)), 400, 'uscita', { controparte_nome: `Beneficiario ${i}`, controparte_conto: `IT88G0000000000000000${String(i).padStart(6, '0')}` }));
      assert.deepEqual(alertsOf('fan_out', profilo(), [...base(), ...payees]), ['2025-10-04']);
      none('fan_out', profilo(), [...base(), ...payees.slice(0, 6)]);
    });

    it('riattivazione_dormiente: an account silent since June 2024 receives 5,000; a new account\'s first money is not a reactivation', () => {
      const early = ordinary('2024-01-01', 6);
      assert.deepEqual(alertsOf('riattivazione_dormiente', profilo(), [...early, mov('2025-03-10', 5_000, 'entrata', { controparte_nome: 'Controparte' })]), ['2025-03-10']);
      none('riattivazione_dormiente', profilo(), [mov('2025-03-10', 5_000, 'entrata', { controparte_nome: 'Controparte' })]);
      none('riattivazione_dormiente', profilo(), [...early, mov('2025-03-10', 900, 'entrata', { controparte_nome: 'Controparte' })]);
    });

    it('incoerenza_profilo_volume: a month of 20,000 in and out from a customer declaring 1,500', () => {
      const month = [
        mov('2025-08-03', 4_000, 'entrata', { controparte_nome: 'A' }), mov('2025-08-10', 4_000, 'entrata', { controparte_nome: 'B' }),
        mov('2025-08-17', 4_000, 'entrata', { controparte_nome: 'A' }), mov('2025-08-12', 4_000, 'uscita', { controparte_nome: 'C' }),
        mov('2025-08-20', 4_000, 'uscita', { controparte_nome: 'C' }),
      ];
      const declaring = profilo({ volume_mensile_atteso_eur: 1_500 });
      assert.deepEqual(alertsOf('incoerenza_profilo_volume', declaring, [...base(), ...month]), ['2025-08-10']);
      none('incoerenza_profilo_volume', profilo({ volume_mensile_atteso_eur: 25_000 }), [...base(), ...month]);
    });

    it('incoerenza_profilo_contanti: 1,200 in cash from a customer who declared none; not from one who declared high cash', () => {
      const cash = mov('2025-05-05', 1_200, 'entrata', { contanti: true });
      assert.deepEqual(alertsOf('incoerenza_profilo_contanti', profilo({ uso_contanti_atteso: 'nessuno' }), [...base(), cash]), ['2025-05-05']);
      none('incoerenza_profilo_contanti', profilo({ uso_contanti_atteso: 'alto' }), [...base(), cash]);
      none('incoerenza_profilo_contanti', profilo({ uso_contanti_atteso: 'basso' }), [...base(), cash]);
    });

    it('crypto_indirizzi_sanzionati and crypto_liste_interne: a transfer with a listed address, whatever the case it is written in', () => {
      const wallet = { cod_rapporto: 'R-1', canale: 'kyt', asset: 'ETH', chain: 'ethereum' };
      const sanctioned = mov('2025-03-01', 50, 'uscita', { ...wallet, indirizzo_controparte: '0x8589427373D6D84E98730D7795D8F6F8731FDA16' });
      assert.ok(firesOn('crypto_indirizzi_sanzionati', profilo(), base(), sanctioned));
      assert.ok(!firesOn('crypto_liste_interne', profilo(), base(), sanctioned));
      const ours = mov('2025-03-01', 50, 'entrata', { ...wallet, indirizzo_controparte: 'bc1qtenantlistaddress0000000000000000' });
      assert.ok(firesOn('crypto_liste_interne', profilo(), base(), ours));
      assert.ok(!firesOn('crypto_indirizzi_sanzionati', profilo(), base(), ours));
      assert.ok(!firesOn('crypto_indirizzi_sanzionati', profilo(), base(), mov('2025-03-01', 50, 'uscita', { ...wallet, indirizzo_controparte: '0x0000000000000000000000000000000000000001' })));
    });
  });
});
