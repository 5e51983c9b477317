import type { UsoContanti } from '../engine/engine.types';
import { monthLength, monthOf, monthStarts, type Storia } from './generator.history';
import { indirizzoCripto, iban, NEGOZI_CARTA, UTENZE } from './generator.names';
import { cents, type Casuale } from './generator.random';
import type { Comportamento } from './generator.types';

/**
 * Ordinary behaviour: what most customers do and what the rules must not alert on. Each kind has
 * its legitimate look-alikes of a typology: an employer pays wages to many people (fan-out), a
 * landlord receives rent in round amounts, a bar deposits its cash takings, a hotel earns most of
 * its year in summer (volume spike against its own history), a family buys a house from savings
 * or a mortgage (one large payment, money in and out in days), a professional is paid by many
 * clients (fan-in), an importer pays suppliers abroad, a December with the thirteenth salary.
 * Every amount, day and count varies per customer, so no constant separates them.
 */

export interface Ordinario {
  rng: Casuale;
  s: Storia;
  /** Foreign countries ordinary counterparties may be in (no high-risk one). */
  paesi: readonly string[];
  uso_contanti: UsoContanti;
  /** The scale of the customer's money (a salary, a business's monthly turnover). */
  scala: number;
}

const causaleCarta = 'Pagamento POS';

function spese(o: Ordinario, start: number, perMese: number, mediana: number, estero = 0.03) {
  const { rng, s } = o;
  const len = monthLength(start);
  for (let k = rng.poisson(perMese); k > 0; k--) {
    const abroad = rng.chance(estero);
    s.add(start + rng.int(0, len - 1), rng.lognormal(mediana, 0.9), 'uscita', {
      causale: causaleCarta, canale: 'carta', controparte_nome: rng.pick(NEGOZI_CARTA), controparte_paese: abroad ? rng.pick(o.paesi) : 'IT',
    });
  }
}

function utenze(o: Ordinario, start: number, quante: number) {
  const { rng, s } = o;
  for (const u of UTENZE.slice(0, quante)) {
    if (rng.chance(0.15)) continue; // bimonthly bills
    s.add(start + rng.int(3, 25), rng.between(u.min, u.max), 'uscita', { causale: 'Addebito SDD', canale: 'addebito_diretto', controparte_nome: u.nome }, { feriale: true });
  }
}

/** ATM withdrawals as the declared cash use says (a few customers use a bit more or less than they declared). */
function prelievi(o: Ordinario, start: number) {
  const { rng, s } = o;
  const base = { nessuno: 0, basso: 0.8, medio: 2.5, alto: 5 }[o.uso_contanti];
  const len = monthLength(start);
  for (let k = rng.poisson(base); k > 0; k--) {
    const importo = rng.pick([50, 100, 150, 200, 250, 300, 400, 500]) * (o.uso_contanti === 'alto' ? rng.int(1, 2) : 1);
    s.add(start + rng.int(0, len - 1), importo, 'uscita', { contanti: true, causale: 'Prelievo ATM', canale: 'atm' });
  }
}

function stipendio(o: Ordinario, datore: { nome: string; conto: string }, netto: number, causale = 'Stipendio') {
  const { rng, s } = o;
  for (const start of monthStarts(s.dal, s.al)) {
    const day = causale === 'Pensione' ? start : start + rng.int(25, 27);
    const m = monthOf(start);
    let importo = netto * rng.between(0.97, 1.04);
    if (causale === 'Stipendio' && m === 12) importo += netto * rng.between(0.8, 1.05); // tredicesima
    if (causale === 'Stipendio' && m === 7 && rng.chance(0.35)) importo += netto * rng.between(0.5, 1); // quattordicesima, or a bonus
    s.add(day, importo, 'entrata', { causale, canale: 'bonifico', controparte_nome: datore.nome, controparte_conto: datore.conto }, { feriale: true });
  }
}

function famiglia(o: Ordinario) {
  const { rng, s } = o;
  const parente = { nome: 'Familiare', conto: iban(rng) };
  for (const start of monthStarts(s.dal, s.al)) {
    if (rng.chance(0.3)) s.add(start + rng.int(0, 27), rng.lognormal(200, 0.7), rng.chance(0.6) ? 'uscita' : 'entrata', { causale: 'Bonifico', canale: 'home_banking', controparte_nome: parente.nome, controparte_conto: parente.conto });
  }
  // Money sent to relatives abroad: a few households do it every month.
  if (rng.chance(0.08)) {
    const paese = rng.pick(o.paesi);
    const conto = iban(rng, paese);
    for (const start of monthStarts(s.dal, s.al)) if (rng.chance(0.8)) s.add(start + rng.int(1, 10), rng.lognormal(250, 0.4), 'uscita', { causale: 'Rimessa familiare', canale: 'money_transfer', controparte_nome: 'Familiare estero', controparte_conto: conto, controparte_paese: paese });
  }
}

function casa(o: Ordinario, affitto: boolean) {
  const { rng, s } = o;
  const conto = iban(rng);
  // Rents are agreed in round figures; mortgage instalments are not.
  const importo = affitto ? rng.pick([450, 500, 550, 600, 650, 700, 750, 800, 900, 1000, 1200]) : rng.between(350, 1100);
  for (const start of monthStarts(s.dal, s.al)) {
    s.add(start + rng.int(0, 5), importo, 'uscita', affitto
      ? { causale: 'Canone locazione', canale: 'bonifico', controparte_nome: 'Proprietario', controparte_conto: conto }
      : { causale: 'Rata mutuo', canale: 'addebito_diretto', controparte_nome: 'Banca mutuo' }, { feriale: true });
  }
}

export function dipendente(o: Ordinario, pensionato = false) {
  const { rng } = o;
  stipendio(o, pensionato ? { nome: 'INPS', conto: 'IT61Y0100003245348000000001' } : { nome: `Datore ${rng.int(1, 999)}`, conto: iban(rng) }, o.scala, pensionato ? 'Pensione' : 'Stipendio');
  const affitto = rng.chance(0.4);
  const mutuo = !affitto && rng.chance(0.35);
  if (affitto || mutuo) casa(o, affitto);
  for (const start of monthStarts(o.s.dal, o.s.al)) {
    utenze(o, start, rng.int(2, 4));
    spese(o, start, pensionato ? rng.between(3, 8) : rng.between(5, 14), pensionato ? 25 : 32);
    prelievi(o, start);
    // A summer holiday abroad: a burst of card spending in one country.
    if (monthOf(start) === 8 && rng.chance(0.25)) {
      const paese = rng.pick(o.paesi);
      const d0 = start + rng.int(0, 20);
      for (let k = rng.int(3, 12); k > 0; k--) o.s.add(d0 + rng.int(0, 9), rng.lognormal(60, 0.8), 'uscita', { causale: causaleCarta, canale: 'carta', controparte_nome: 'Esercente estero', controparte_paese: paese });
    }
  }
  famiglia(o);
}

export function studente(o: Ordinario) {
  const { rng, s } = o;
  const genitore = { nome: 'Genitore', conto: iban(rng) };
  // Parents send round amounts every month: a look-alike of round-amount transfers.
  const paghetta = rng.pick([200, 250, 300, 400, 500]);
  for (const start of monthStarts(s.dal, s.al)) {
    s.add(start + rng.int(0, 4), paghetta, 'entrata', { causale: 'Bonifico', canale: 'bonifico', controparte_nome: genitore.nome, controparte_conto: genitore.conto });
    spese(o, start, rng.between(4, 10), 18, 0.05);
    prelievi(o, start);
    if (rng.chance(0.2)) s.add(start + rng.int(0, 27), rng.lognormal(300, 0.5), 'entrata', { causale: 'Compenso occasionale', canale: 'bonifico', controparte_nome: `Committente ${rng.int(1, 99)}`, controparte_conto: iban(rng) });
  }
}

export function locatore(o: Ordinario) {
  const { rng, s } = o;
  dipendente(o, rng.chance(0.4));
  const inquilini = Array.from({ length: rng.int(1, 6) }, (_, i) => ({
    nome: `Inquilino ${i + 1}`, conto: iban(rng), canone: rng.pick([500, 600, 700, 750, 800, 900, 1000, 1200, 1500, 2000]),
  }));
  for (const start of monthStarts(s.dal, s.al)) {
    for (const t of inquilini) {
      if (rng.chance(0.05)) continue; // a late month, paid with the next
      s.add(start + rng.int(0, 8), t.canone, 'entrata', { causale: 'Canone locazione', canale: 'bonifico', controparte_nome: t.nome, controparte_conto: t.conto }, { feriale: true });
    }
    const m = monthOf(start);
    if (m === 6 || m === 12) s.add(start + 15, inquilini.length * rng.between(300, 900), 'uscita', { causale: 'F24 IMU', canale: 'home_banking', controparte_nome: 'Agenzia delle Entrate' }, { feriale: true });
  }
}

/** A professional: paid by many clients, some new each month (fan-in look-alike), taxes quarterly. */
export function professionista(o: Ordinario) {
  const { rng, s } = o;
  const clienti = Array.from({ length: rng.int(15, 60) }, (_, i) => ({ nome: `Cliente ${i + 1}`, conto: iban(rng) }));
  const fatture = o.scala / 1500;
  for (const start of monthStarts(s.dal, s.al)) {
    const len = monthLength(start);
    for (let k = rng.poisson(fatture * rng.between(0.6, 1.4)); k > 0; k--) {
      const c = rng.pick(clienti);
      s.add(start + rng.int(0, len - 1), rng.lognormal(1200, 0.8), 'entrata', { causale: 'Saldo fattura', canale: 'bonifico', controparte_nome: c.nome, controparte_conto: c.conto }, { feriale: true });
    }
    utenze(o, start, 3);
    spese(o, start, rng.between(4, 12), 60);
    prelievi(o, start);
    if ([3, 6, 9, 11].includes(monthOf(start))) s.add(start + 15, o.scala * rng.between(0.4, 1.2), 'uscita', { causale: 'F24', canale: 'home_banking', controparte_nome: 'Agenzia delle Entrate' }, { feriale: true });
    s.add(start + rng.int(1, 5), o.scala * rng.between(0.3, 0.6), 'uscita', { causale: 'Giroconto conto personale', canale: 'home_banking', controparte_nome: 'Conto personale', controparte_conto: 'IT60X0542811101000000123456' }, { feriale: true });
  }
}

/** A shop that takes cash and declared it: deposits of the takings (some just under 5,000 by nature), card settlements, suppliers. */
export function negozioContanti(o: Ordinario, dipendenti: number) {
  const { rng, s } = o;
  const acquirer = { nome: 'Nexi Payments', conto: 'IT08U0306909606100000120347' };
  const fornitori = Array.from({ length: rng.int(3, 10) }, (_, i) => ({ nome: `Fornitore ${i + 1}`, conto: iban(rng) }));
  const staff = Array.from({ length: dipendenti }, (_, i) => ({ nome: `Dipendente ${i + 1}`, conto: iban(rng), netto: rng.between(1000, 1700) }));
  const giorniVersamento = rng.pick([[1], [1, 4], [1, 3, 5], [1, 2, 3, 4, 5, 6]]);
  const incassoGiorno = o.scala / 26;
  for (let d = s.dal; d <= s.al; d++) {
    const wd = ((d + 4) % 7) || 7;
    if (wd !== 7) s.add(d + 1, incassoGiorno * rng.between(0.3, 0.6), 'entrata', { causale: 'Accredito POS', canale: 'flusso', controparte_nome: acquirer.nome, controparte_conto: acquirer.conto });
    if (giorniVersamento.includes(wd)) {
      const since = 7 / giorniVersamento.length;
      s.add(d, incassoGiorno * since * rng.between(0.25, 0.6), 'entrata', { contanti: true, causale: 'Versamento contanti', canale: rng.chance(0.7) ? 'sportello' : 'cassa_continua' });
    }
  }
  for (const start of monthStarts(s.dal, s.al)) {
    for (const f of fornitori) if (rng.chance(0.8)) s.add(start + rng.int(0, 27), o.scala * rng.between(0.05, 0.15), 'uscita', { causale: 'Pagamento fornitore', canale: 'home_banking', controparte_nome: f.nome, controparte_conto: f.conto }, { feriale: true });
    for (const p of staff) s.add(start + rng.int(26, 28), p.netto, 'uscita', { causale: 'Stipendio', canale: 'home_banking', controparte_nome: p.nome, controparte_conto: p.conto }, { feriale: true });
    s.add(start + 15, o.scala * rng.between(0.05, 0.12), 'uscita', { causale: 'F24', canale: 'home_banking', controparte_nome: 'Agenzia delle Entrate' }, { feriale: true });
    utenze(o, start, 3);
    if (rng.chance(0.5)) s.add(start + rng.int(0, 5), rng.pick([800, 1000, 1200, 1500, 2000, 2500]), 'uscita', { causale: 'Canone locazione locale', canale: 'bonifico', controparte_nome: 'Proprietario locale', controparte_conto: iban(rng) }, { feriale: true });
  }
}

/** A seasonal business: most of its turnover from June to September (a volume spike against its own winter). */
export function stagionale(o: Ordinario) {
  const { rng, s } = o;
  const clienti = Array.from({ length: rng.int(20, 80) }, (_, i) => ({ nome: `Ospite ${i + 1}`, conto: iban(rng, rng.chance(0.3) ? rng.pick(o.paesi) : 'IT') }));
  const peso = (m: number) => ({ 6: 1.6, 7: 2.6, 8: 3, 9: 1.4, 5: 0.6, 10: 0.3 } as Record<number, number>)[m] ?? 0.08;
  const staff = Array.from({ length: rng.int(2, 15) }, (_, i) => ({ nome: `Stagionale ${i + 1}`, conto: iban(rng), netto: rng.between(1100, 1600) }));
  for (const start of monthStarts(s.dal, s.al)) {
    const m = monthOf(start);
    const w = peso(m) * rng.between(0.8, 1.2);
    const len = monthLength(start);
    for (let k = rng.poisson(w * 25); k > 0; k--) {
      const c = rng.pick(clienti);
      s.add(start + rng.int(0, len - 1), rng.lognormal(o.scala / 25, 0.6), 'entrata', { causale: rng.chance(0.5) ? 'Caparra soggiorno' : 'Saldo soggiorno', canale: 'bonifico', controparte_nome: c.nome, controparte_conto: c.conto, controparte_paese: c.conto.slice(0, 2) });
    }
    if (w > 0.5) {
      for (let k = rng.poisson(w * 6); k > 0; k--) s.add(start + rng.int(0, len - 1), rng.lognormal(o.scala / 12, 0.5), 'entrata', { contanti: o.uso_contanti !== 'nessuno', causale: 'Versamento incassi', canale: 'sportello' });
      for (const p of staff) s.add(start + rng.int(26, 28), p.netto, 'uscita', { causale: 'Stipendio', canale: 'home_banking', controparte_nome: p.nome, controparte_conto: p.conto }, { feriale: true });
      spese(o, start, 6, o.scala / 30);
    }
    if (m === 4 || m === 5) s.add(start + rng.int(0, 27), o.scala * rng.between(1, 3), 'uscita', { causale: 'Lavori di ristrutturazione', canale: 'home_banking', controparte_nome: 'Impresa edile', controparte_conto: iban(rng) }, { feriale: true });
    utenze(o, start, 2);
    s.add(start + 15, o.scala * w * rng.between(0.05, 0.12), 'uscita', { causale: 'F24', canale: 'home_banking', controparte_nome: 'Agenzia delle Entrate' }, { feriale: true });
  }
}

/** An employer: wages to the same employees every month (fan-out look-alike), a few hires; invoices in, suppliers out. */
export function datoreLavoro(o: Ordinario, dipendenti: number) {
  const { rng, s } = o;
  const staff = Array.from({ length: dipendenti }, (_, i) => ({ nome: `Dipendente ${i + 1}`, conto: iban(rng), netto: rng.lognormal(1600, 0.25), dal: s.dal }));
  const clienti = Array.from({ length: rng.int(5, 40) }, (_, i) => ({ nome: `Cliente ${i + 1} S.r.l.`, conto: iban(rng) }));
  const fornitori = Array.from({ length: rng.int(5, 25) }, (_, i) => ({ nome: `Fornitore ${i + 1} S.p.A.`, conto: iban(rng) }));
  // Hires during the year: each starts being paid from a month on.
  for (let k = rng.poisson(dipendenti / 10); k > 0; k--) staff.push({ nome: `Assunto ${k}`, conto: iban(rng), netto: rng.lognormal(1500, 0.2), dal: rng.int(s.dal, s.al) });
  const fatturato = o.scala;
  for (const start of monthStarts(s.dal, s.al)) {
    const m = monthOf(start);
    const len = monthLength(start);
    for (const p of staff) {
      if (p.dal > start + 27) continue;
      s.add(start + 27, p.netto * (m === 12 ? 2 : 1) * rng.between(0.98, 1.03), 'uscita', { causale: m === 12 ? 'Stipendio e tredicesima' : 'Stipendio', canale: 'flusso', controparte_nome: p.nome, controparte_conto: p.conto }, { feriale: true });
    }
    for (let k = rng.poisson(Math.min(40, clienti.length * 0.8)); k > 0; k--) {
      const c = rng.pick(clienti);
      s.add(start + rng.int(0, len - 1), rng.lognormal(fatturato / Math.max(10, clienti.length * 0.8), 0.7), 'entrata', { causale: 'Incasso fattura', canale: 'bonifico', controparte_nome: c.nome, controparte_conto: c.conto }, { feriale: true });
    }
    for (let k = rng.poisson(Math.min(25, fornitori.length * 0.7)); k > 0; k--) {
      const f = rng.pick(fornitori);
      s.add(start + rng.int(0, len - 1), rng.lognormal(fatturato * 0.4 / Math.max(8, fornitori.length * 0.7), 0.7), 'uscita', { causale: 'Pagamento fornitore', canale: 'home_banking', controparte_nome: f.nome, controparte_conto: f.conto }, { feriale: true });
    }
    s.add(start + 15, staff.length * rng.between(500, 900), 'uscita', { causale: 'F24 contributi e ritenute', canale: 'home_banking', controparte_nome: 'Agenzia delle Entrate' }, { feriale: true });
    utenze(o, start, 4);
    spese(o, start, 5, 120);
  }
}

/** Trade with foreign suppliers and customers in ordinary countries; advances in round amounts are common. */
export function commercioEstero(o: Ordinario) {
  const { rng, s } = o;
  const esteri = Array.from({ length: rng.int(4, 15) }, () => { const p = rng.pick(o.paesi); return { nome: `Supplier ${rng.int(1, 999)} Ltd`, paese: p, conto: iban(rng, p) }; });
  const clienti = Array.from({ length: rng.int(5, 30) }, (_, i) => ({ nome: `Cliente ${i + 1}`, conto: iban(rng) }));
  for (const start of monthStarts(s.dal, s.al)) {
    const len = monthLength(start);
    for (let k = rng.poisson(rng.between(2, 8)); k > 0; k--) {
      const f = rng.pick(esteri);
      const anticipo = rng.chance(0.3);
      s.add(start + rng.int(0, len - 1), anticipo ? rng.int(2, 40) * 1000 : rng.lognormal(o.scala / 6, 0.8), 'uscita', { causale: anticipo ? 'Anticipo ordine' : 'Pagamento fattura estera', canale: 'bonifico_estero', controparte_nome: f.nome, controparte_conto: f.conto, controparte_paese: f.paese }, { feriale: true });
    }
    for (let k = rng.poisson(rng.between(4, 15)); k > 0; k--) {
      const c = rng.pick(clienti);
      s.add(start + rng.int(0, len - 1), rng.lognormal(o.scala / 10, 0.7), 'entrata', { causale: 'Incasso fattura', canale: 'bonifico', controparte_nome: c.nome, controparte_conto: c.conto }, { feriale: true });
    }
    s.add(start + 15, o.scala * rng.between(0.04, 0.1), 'uscita', { causale: 'F24', canale: 'home_banking', controparte_nome: 'Agenzia delle Entrate' }, { feriale: true });
    utenze(o, start, 3);
  }
}

/**
 * A family buys a house in the year: round deposits (caparra), savings moved from a deposit
 * account or a mortgage credited days before the deed, and one large payment to the notary.
 */
export function acquistoCasa(o: Ordinario, giorno: number) {
  const { rng, s } = o;
  dipendente(o);
  const prezzo = Math.round(rng.lognormal(220_000, 0.4) / 1000) * 1000;
  const caparra = rng.pick([5000, 10_000, 15_000, 20_000, 30_000]);
  const venditore = { nome: rng.chance(0.5) ? 'Venditore immobile' : 'Immobiliare Srl', conto: iban(rng) };
  s.add(giorno - rng.int(40, 90), caparra, 'uscita', { causale: 'Caparra confirmatoria', canale: 'bonifico', controparte_nome: venditore.nome, controparte_conto: venditore.conto }, { feriale: true });
  const mutuo = rng.chance(0.65) ? Math.round(prezzo * rng.between(0.5, 0.8) / 1000) * 1000 : 0;
  const risparmi = prezzo - caparra - mutuo;
  if (mutuo) s.add(giorno - rng.int(0, 2), mutuo, 'entrata', { causale: 'Erogazione mutuo', canale: 'interno', controparte_nome: 'Banca mutuo' });
  if (risparmi > 0) s.add(giorno - rng.int(1, 20), risparmi, 'entrata', { causale: 'Giroconto da deposito titoli', canale: 'interno', controparte_nome: 'Deposito titoli intestato' });
  s.add(giorno, prezzo - caparra, 'uscita', { causale: 'Saldo prezzo rogito', canale: 'bonifico', controparte_nome: venditore.nome, controparte_conto: venditore.conto }, { feriale: true });
  s.add(giorno, cents(prezzo * rng.between(0.02, 0.04)), 'uscita', { causale: 'Onorario notaio e imposte', canale: 'bonifico', controparte_nome: 'Studio notarile', controparte_conto: iban(rng) }, { feriale: true });
}

export function acquistoAuto(o: Ordinario, giorno: number) {
  const { rng, s } = o;
  dipendente(o);
  const prezzo = Math.round(rng.lognormal(24_000, 0.45) / 100) * 100;
  if (rng.chance(0.6)) s.add(giorno - rng.int(1, 10), prezzo, 'entrata', { causale: 'Giroconto da conto deposito', canale: 'interno', controparte_nome: 'Conto deposito intestato' });
  s.add(giorno, prezzo, 'uscita', { causale: 'Acquisto autovettura', canale: 'bonifico', controparte_nome: 'Concessionaria Auto', controparte_conto: iban(rng) }, { feriale: true });
}

/** Buys crypto on an exchange every month or so (ordinary addresses, none on a list). */
export function investitoreCripto(o: Ordinario) {
  const { rng, s } = o;
  dipendente(o);
  const chain = rng.pick(['bitcoin', 'ethereum', 'tron'] as const);
  const exchange = Array.from({ length: rng.int(1, 3) }, () => indirizzoCripto(rng, chain));
  const asset = { bitcoin: 'BTC', ethereum: 'ETH', tron: 'USDT' }[chain];
  for (const start of monthStarts(s.dal, s.al)) {
    for (let k = rng.poisson(1.5); k > 0; k--) {
      s.add(start + rng.int(0, 27), rng.lognormal(300, 0.8), rng.chance(0.75) ? 'uscita' : 'entrata', {
        cod_rapporto: `${s.cod}-W`, causale: 'Trasferimento cripto', canale: 'kyt', indirizzo_controparte: rng.pick(exchange), asset, chain, hash: `0x${start.toString(16)}${s.movimenti.length}`,
        controparte_paese: null,
      });
    }
  }
}

/** Moves rarely: a few transfers a year, long silences (a dormancy look-alike that is not reactivated with money). */
export function saltuario(o: Ordinario) {
  const { rng, s } = o;
  let d = s.dal + rng.int(0, 60);
  while (d <= s.al) {
    s.add(d, rng.lognormal(150, 0.9), rng.chance(0.5) ? 'entrata' : 'uscita', { causale: rng.pick(['Bonifico', 'Canone conto', 'Interessi']), canale: 'home_banking', controparte_nome: 'Controparte', controparte_conto: iban(rng) });
    d += rng.int(20, 150);
  }
}

export type { Comportamento };
