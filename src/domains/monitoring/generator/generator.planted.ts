import type { MovimentoMonitorato } from '../engine/engine.types';
import type { Storia } from './generator.history';
import { chainOf, iban } from './generator.names';
import type { Casuale } from './generator.random';
import type { Etichetta, IndirizzoCripto, TipologiaPiantata } from './generator.types';

/**
 * The planted patterns, one function per typology: each writes its movements into a customer's
 * history from `giorno` on and returns them (the label's window is their first and last day).
 * Counts, amounts, spans, channels and counterparties vary widely within what the typology means,
 * so that a rule must judge the customer (own history, declared profile, peers) rather than match
 * a constant of this generator.
 */

export interface Piantagione {
  rng: Casuale;
  s: Storia;
  /** The customer's scale of money (monthly): patterns relative to it look unusual to that customer. */
  scala: number;
  paesi_alto_rischio: readonly string[];
  paesi_ordinari: readonly string[];
  sanzionati: readonly IndirizzoCripto[];
  tenant: readonly string[];
}

type Pianta = (p: Piantagione, giorno: number) => (MovimentoMonitorato | null)[];

const newCp = (rng: Casuale, prefix: string) => ({ nome: `${prefix} ${rng.int(1000, 99_999)}`, conto: iban(rng) });
const counter = (rng: Casuale) => (rng.chance(0.7) ? 'sportello' : rng.pick(['cassa_continua', 'atm_evoluto']));

const PIANTE: Record<TipologiaPiantata, Pianta> = {
  // Several cash deposits each just under a threshold (1,000 / 3,000 / 5,000 / 10,000), within days or weeks.
  strutturazione_contanti: ({ rng, s }, g) => {
    const soglia = rng.weighted([[1000, 1], [3000, 2], [5000, 4], [10_000, 2]] as const);
    const n = rng.int(3, 9);
    const span = rng.int(n, Math.max(n + 1, 25));
    const prelievo = rng.chance(0.2);
    return Array.from({ length: n }, () => s.add(g + rng.int(0, span), soglia * rng.between(0.86, 0.998) - (rng.chance(0.5) ? 0 : rng.int(0, 3) * 0.01), prelievo ? 'uscita' : 'entrata', {
      contanti: true, causale: prelievo ? 'Prelievo contanti' : 'Versamento contanti', canale: counter(rng),
    }));
  },
  // Cash over 10,000 in a calendar month, in a few operations of any size, for a customer who does not run a cash business.
  contanti_oltre_soglia: ({ rng, s }, g) => {
    const totale = 10_000 * rng.between(1.1, 3.5);
    const n = rng.int(2, 7);
    const weights = Array.from({ length: n }, () => rng.between(0.3, 1));
    const sum = weights.reduce((a, b) => a + b, 0);
    const segno = rng.chance(0.7) ? 'entrata' : 'uscita';
    return weights.map((w) => s.add(g + rng.int(0, 20), Math.round(totale * w / sum / (rng.chance(0.5) ? 10 : 1)) * (rng.chance(0.5) ? 10 : 1), segno, {
      contanti: true, causale: segno === 'entrata' ? 'Versamento contanti' : 'Prelievo contanti', canale: counter(rng),
    }));
  },
  // A burst of operations in a few days: many times the customer's usual count.
  picco_velocita: ({ rng, s, scala }, g) => {
    const n = rng.int(15, 60);
    const span = rng.int(2, 8);
    const cps = Array.from({ length: rng.int(2, 8) }, () => newCp(rng, 'Controparte'));
    return Array.from({ length: n }, () => {
      const cp = rng.pick(cps);
      return s.add(g + rng.int(0, span), rng.lognormal(Math.max(100, scala / 20), 0.8), rng.chance(0.5) ? 'entrata' : 'uscita', { causale: rng.pick(['Bonifico', 'Giroconto', 'Ricarica']), canale: rng.pick(['home_banking', 'app', 'bonifico']), controparte_nome: cp.nome, controparte_conto: cp.conto });
    });
  },
  // A few large transfers in a fortnight: many times the customer's monthly volume (no cash, domestic).
  picco_volume: ({ rng, s, scala }, g) => {
    const totale = scala * rng.between(8, 40);
    const n = rng.int(1, 5);
    const span = rng.int(0, 12);
    const cp = newCp(rng, rng.pick(['Societa', 'Privato', 'Fiduciaria']));
    const out: (MovimentoMonitorato | null)[] = [];
    for (let k = 0; k < n; k++) {
      const importo = totale / n * rng.between(0.7, 1.3);
      out.push(s.add(g + rng.int(0, span), importo, 'entrata', { causale: rng.pick(['Bonifico', 'Accredito', 'Restituzione finanziamento']), canale: 'bonifico', controparte_nome: cp.nome, controparte_conto: cp.conto }));
      if (rng.chance(0.5)) out.push(s.add(g + span + rng.int(3, 20), importo * rng.between(0.3, 0.9), 'uscita', { causale: 'Bonifico', canale: 'home_banking', controparte_nome: `Beneficiario ${rng.int(1, 9999)}`, controparte_conto: iban(rng) }));
    }
    return out;
  },
  // Transfers with a high-risk country: named as the counterparty's country, or only in the IBAN, or both.
  paesi_alto_rischio: ({ rng, s, paesi_alto_rischio }, g) => {
    const paese = rng.pick(paesi_alto_rischio);
    const modo = rng.weighted([['entrambi', 4], ['solo_paese', 3], ['solo_iban', 3]] as const);
    const n = rng.int(1, 4);
    const conto = modo === 'solo_paese' ? `ACC${rng.int(10_000_000, 99_999_999)}` : iban(rng, paese);
    const segno = rng.chance(0.6) ? 'uscita' : 'entrata';
    return Array.from({ length: n }, () => s.add(g + rng.int(0, 30), rng.lognormal(6000, 1), segno, {
      causale: rng.pick(['Bonifico estero', 'Pagamento fattura', 'Rimessa', 'Trasferimento fondi']), canale: 'bonifico_estero',
      controparte_nome: `Beneficiary ${rng.int(1, 9999)}`, controparte_conto: conto, controparte_paese: modo === 'solo_iban' ? null : paese,
    }));
  },
  // Repeated round amounts (multiples of 500 EUR) with several counterparties or in cash, within weeks.
  importi_tondi: ({ rng, s, scala }, g) => {
    const n = rng.int(4, 12);
    const span = rng.int(7, 40);
    const unita = rng.pick([500, 1000, 1000, 5000]);
    const max = Math.max(2, Math.round(scala * 3 / unita));
    const contanti = rng.chance(0.3);
    const segno = rng.chance(0.5) ? 'entrata' : 'uscita';
    return Array.from({ length: n }, () => {
      const cp = newCp(rng, 'Controparte');
      return s.add(g + rng.int(0, span), unita * rng.int(1, Math.min(max, 40)), segno, contanti
        ? { contanti: true, causale: segno === 'entrata' ? 'Versamento contanti' : 'Prelievo contanti', canale: counter(rng) }
        : { causale: rng.pick(['Bonifico', 'Prestito', 'Giroconto']), canale: 'bonifico', controparte_nome: cp.nome, controparte_conto: cp.conto });
    });
  },
  // Money in and out again within days, more than once: the account as a transit.
  transito_rapido: ({ rng, s, scala, paesi_ordinari }, g) => {
    const cicli = rng.int(2, 5);
    const out: (MovimentoMonitorato | null)[] = [];
    let d = g;
    for (let c = 0; c < cicli; c++) {
      const importo = rng.lognormal(Math.max(5000, scala * 4), 0.7);
      const da = newCp(rng, 'Ordinante');
      out.push(s.add(d, importo, 'entrata', { causale: rng.pick(['Bonifico', 'Accredito', 'Giroconto']), canale: 'bonifico', controparte_nome: da.nome, controparte_conto: da.conto }));
      let residuo = importo * rng.between(0.88, 0.995);
      const uscite = rng.int(1, 3);
      for (let u = 0; u < uscite; u++) {
        const parte = u === uscite - 1 ? residuo : residuo * rng.between(0.3, 0.6);
        residuo -= parte;
        const estero = rng.chance(0.3);
        const paese = estero ? rng.pick(paesi_ordinari) : 'IT';
        out.push(s.add(d + rng.int(0, 3), parte, 'uscita', { causale: 'Bonifico', canale: estero ? 'bonifico_estero' : 'home_banking', controparte_nome: `Beneficiario ${rng.int(1, 9999)}`, controparte_conto: iban(rng, paese), controparte_paese: paese }));
      }
      d += rng.int(3, 15);
    }
    return out;
  },
  // Many counterparties never seen before paying in within days.
  fan_in: ({ rng, s }, g) => {
    const n = rng.int(10, 40);
    const span = rng.int(3, 14);
    const mediana = rng.lognormal(500, 0.6);
    return Array.from({ length: n }, () => {
      const cp = newCp(rng, 'Ordinante');
      return s.add(g + rng.int(0, span), rng.lognormal(mediana, 0.5), 'entrata', { causale: rng.pick(['Bonifico', 'Ricarica', 'Pagamento']), canale: rng.pick(['bonifico', 'instant']), controparte_nome: cp.nome, controparte_conto: cp.conto });
    });
  },
  // Many new counterparties paid within days.
  fan_out: ({ rng, s }, g) => {
    const n = rng.int(10, 40);
    const span = rng.int(3, 14);
    const mediana = rng.lognormal(600, 0.6);
    return Array.from({ length: n }, () => {
      const cp = newCp(rng, 'Beneficiario');
      return s.add(g + rng.int(0, span), rng.lognormal(mediana, 0.5), 'uscita', { causale: rng.pick(['Bonifico', 'Pagamento', 'Rimborso']), canale: rng.pick(['home_banking', 'instant']), controparte_nome: cp.nome, controparte_conto: cp.conto });
    });
  },
  // After months of silence (the ordinary history is cut by the caller), sizeable operations again.
  riattivazione_dormiente: ({ rng, s, scala }, g) => {
    const n = rng.int(1, 8);
    const span = rng.int(0, 14);
    return Array.from({ length: n }, () => {
      const cp = newCp(rng, 'Controparte');
      const contanti = rng.chance(0.2);
      return s.add(g + rng.int(0, span), rng.lognormal(Math.max(3000, scala * 3), 0.8), rng.chance(0.55) ? 'entrata' : 'uscita', contanti
        ? { contanti: true, causale: 'Versamento contanti', canale: 'sportello' }
        : { causale: 'Bonifico', canale: 'bonifico', controparte_nome: cp.nome, controparte_conto: cp.conto });
    });
  },
  // For one to three months, several times the declared monthly volume, in ordinary-looking transfers.
  incoerenza_profilo_volume: ({ rng, s, scala }, g) => {
    const mesi = rng.int(1, 3);
    const volume = scala * rng.between(4, 12);
    const out: (MovimentoMonitorato | null)[] = [];
    const cps = Array.from({ length: rng.int(1, 4) }, () => newCp(rng, 'Controparte'));
    for (let m = 0; m < mesi; m++) {
      const n = rng.int(2, 6);
      for (let k = 0; k < n; k++) {
        const cp = rng.pick(cps);
        out.push(s.add(g + m * 30 + rng.int(0, 27), volume / n * rng.between(0.6, 1.4), rng.chance(0.6) ? 'entrata' : 'uscita', { causale: rng.pick(['Bonifico', 'Pagamento fattura', 'Giroconto']), canale: 'bonifico', controparte_nome: cp.nome, controparte_conto: cp.conto }));
      }
    }
    return out;
  },
  // Cash from a customer who declared none.
  incoerenza_profilo_contanti: ({ rng, s }, g) => {
    const n = rng.int(2, 6);
    const span = rng.int(5, 60);
    return Array.from({ length: n }, () => {
      const entrata = rng.chance(0.6);
      return s.add(g + rng.int(0, span), Math.round(rng.lognormal(1500, 0.7) / 10) * 10, entrata ? 'entrata' : 'uscita', { contanti: true, causale: entrata ? 'Versamento contanti' : 'Prelievo contanti', canale: counter(rng) });
    });
  },
  // Transfers to or from an address of the screening area's sanctioned list.
  crypto_indirizzi_sanzionati: ({ rng, s, sanzionati }, g) => {
    const a = rng.pick(sanzionati);
    const { chain, asset } = chainOf(a.asset, a.indirizzo);
    return Array.from({ length: rng.int(1, 3) }, (_, k) => s.add(g + rng.int(0, 20), rng.lognormal(2000, 1), rng.chance(0.7) ? 'uscita' : 'entrata', {
      cod_rapporto: `${s.cod}-W`, causale: 'Trasferimento cripto', canale: 'kyt', indirizzo_controparte: a.indirizzo, asset, chain, hash: `0x${s.cod}${g}${k}`, controparte_paese: null,
    }));
  },
  // Transfers with an address on the tenant's own list.
  crypto_liste_interne: ({ rng, s, tenant }, g) => {
    const a = rng.pick(tenant);
    const chain = a.startsWith('0x') ? 'ethereum' : a.startsWith('T') ? 'tron' : 'bitcoin';
    const asset = { ethereum: 'ETH', tron: 'USDT', bitcoin: 'BTC' }[chain];
    return Array.from({ length: rng.int(1, 3) }, (_, k) => s.add(g + rng.int(0, 20), rng.lognormal(1500, 1), rng.chance(0.6) ? 'uscita' : 'entrata', {
      cod_rapporto: `${s.cod}-W`, causale: 'Trasferimento cripto', canale: 'kyt', indirizzo_controparte: a, asset, chain, hash: `0x${s.cod}${g}${k}t`, controparte_paese: null,
    }));
  },
};

/** Plants `tipologia` from `giorno` on; null when nothing fell inside the period. */
export function pianta(tipologia: TipologiaPiantata, p: Piantagione, giorno: number): Etichetta | null {
  const movimenti = PIANTE[tipologia](p, giorno).filter((m): m is MovimentoMonitorato => m !== null);
  if (!movimenti.length) return null;
  const days = movimenti.map((m) => m.data_operazione).sort();
  return { cod_anagrafe: p.s.cod, tipologia, dal: days[0]!, al: days[days.length - 1]!, movimenti: movimenti.map((m) => m.id) };
}

