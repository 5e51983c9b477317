import { dayNumber, dayString } from '../engine/engine.dates';
import { compareMovements } from '../engine/engine.history';
import type { ProfiloCliente, RapportoMonitorato, TipoSoggetto, UsoContanti } from '../engine/engine.types';
import { TIPOLOGIE } from '../monitoring.typologies';
import { Storia } from './generator.history';
import {
  COGNOMI, COMMERCIO_ESTERO, COMUNI, DATORI, FORME, indirizzoCripto, NEGOZI_CONTANTI, NOMI_AZIENDA, NOMI_F, NOMI_M, PAESI_ORDINARI,
  PROFESSIONI_DIPENDENTE, PROFESSIONISTI, STAGIONALI,
} from './generator.names';
import * as ord from './generator.ordinary';
import { pianta } from './generator.planted';
import { Casuale } from './generator.random';
import type { AnagraficaGenerata, AnnoGenerato, ClienteGenerato, Comportamento, Etichetta, OpzioniAnno, TipologiaPiantata } from './generator.types';

/**
 * The synthetic labelled year (docs/monitoring.md, "The generator and the seed"): N customers with
 * declared profiles and ordinary behaviour, a known share of each typology planted among them, and
 * the labels (customer, typology, first and last day). Pure: each customer is a function of the
 * seed and its index (its own PRNG stream), so a consumer can build one customer at a time
 * (`pianoAnno(...).cliente(i)`) and a year of 20,000 customers never has to be held at once.
 */

export const TIPOLOGIE_PIANTATE = TIPOLOGIE.filter((t): t is TipologiaPiantata => t !== 'altro');

/** Kinds of ordinary behaviour with their share of the population (persons ~75%, sole traders ~12%, companies ~13%). */
const COMPORTAMENTI: readonly (readonly [Comportamento, number])[] = [
  ['dipendente', 36], ['pensionato', 14], ['studente', 5], ['locatore', 5], ['acquisto_casa', 3], ['acquisto_auto', 3],
  ['investitore_cripto', 3], ['saltuario', 4], ['nuovo_cliente', 2],
  ['professionista', 6], ['negozio_contanti', 5], ['stagionale', 2.5],
  ['datore_lavoro', 8], ['commercio_estero', 3.5],
];
/** Hosts that would make a cash typology expected behaviour. */
const CASH_BUSINESS: ReadonlySet<Comportamento> = new Set(['negozio_contanti', 'stagionale']);

export interface PianoAnno {
  dal: string;
  al: string;
  storico_dal: string;
  clienti: number;
  indirizzi_tenant: string[];
  /** The i-th customer (0-based): the same for the same options, whatever else was built. */
  cliente(i: number): ClienteGenerato;
}

const codOf = (i: number) => `GEN${String(i + 1).padStart(6, '0')}`;

export function pianoAnno(opts: OpzioniAnno): PianoAnno {
  if (!(Number.isInteger(opts.clienti) && opts.clienti >= 1)) throw new RangeError('clienti: a positive integer');
  if (!opts.paesi_alto_rischio.length) throw new RangeError('paesi_alto_rischio: the reference list is empty');
  if (!opts.indirizzi_sanzionati.length) throw new RangeError('indirizzi_sanzionati: the sanctioned addresses are empty');
  const seed = String(opts.seed);
  const inizio = opts.inizio ?? '2025-01-01';
  const mesi = opts.mesi ?? 12;
  const mesiStorico = opts.mesi_storico ?? 6;
  const dal = dayNumber(inizio);
  const al = dayNumber(addMonths(inizio, mesi)) - 1;
  const storicoDal = dayNumber(addMonths(inizio, -mesiStorico));
  const evitare = new Set([...(opts.paesi_da_evitare ?? []), ...opts.paesi_alto_rischio]);
  const paesiOrdinari = PAESI_ORDINARI.filter((p) => !evitare.has(p));
  const tenantRng = new Casuale(`${seed}:lista-tenant`);
  const indirizziTenant = Array.from({ length: 25 }, (_, k) => indirizzoCripto(tenantRng, (['bitcoin', 'ethereum', 'tron'] as const)[k % 3]));

  // Which customers carry which typology: a fixed count per typology, on shuffled indices.
  const quota = opts.quota_per_tipologia ?? 0.01;
  const perTipologia = Math.max(1, Math.round(opts.clienti * quota));
  const order = new Casuale(`${seed}:piantagione`).shuffle(Array.from({ length: opts.clienti }, (_, i) => i));
  const planted = new Map<number, TipologiaPiantata>();
  let next = 0;
  for (let r = 0; r < perTipologia; r++) {
    for (const t of TIPOLOGIE_PIANTATE) {
      if (next >= order.length) break;
      planted.set(order[next++]!, t);
    }
  }

  const ctx = { seed, dal, al, storicoDal, paesiOrdinari, opts, indirizziTenant };
  return {
    dal: dayString(dal), al: dayString(al), storico_dal: dayString(storicoDal), clienti: opts.clienti, indirizzi_tenant: indirizziTenant,
    cliente: (i) => buildCustomer(ctx, i, planted.get(i) ?? null),
  };
}

/** The whole year in memory (tests, small seeds): every customer and every label. */
export function generaAnno(opts: OpzioniAnno): AnnoGenerato {
  const piano = pianoAnno(opts);
  const clienti = Array.from({ length: piano.clienti }, (_, i) => piano.cliente(i));
  return {
    dal: piano.dal, al: piano.al, storico_dal: piano.storico_dal, clienti, etichette: clienti.flatMap((c) => c.etichette), indirizzi_tenant: piano.indirizzi_tenant,
  };
}

function addMonths(g: string, months: number): string {
  const y = Number(g.slice(0, 4));
  const m = Number(g.slice(5, 7)) - 1 + months;
  return dayString(Date.UTC(y + Math.floor(m / 12), ((m % 12) + 12) % 12, Number(g.slice(8, 10))) / 86_400_000);
}

interface Ctx {
  seed: string; dal: number; al: number; storicoDal: number; paesiOrdinari: string[]; opts: OpzioniAnno; indirizziTenant: string[];
}

function hostFor(rng: Casuale, t: TipologiaPiantata | null): Comportamento {
  for (;;) {
    const c = rng.weighted(COMPORTAMENTI);
    if (!t) return c;
    if (c === 'nuovo_cliente') continue; // a planted pattern needs the customer's history to stand out from
    if ((t === 'strutturazione_contanti' || t === 'contanti_oltre_soglia' || t === 'incoerenza_profilo_contanti') && CASH_BUSINESS.has(c)) continue;
    return c;
  }
}

const SOGGETTO: Record<Comportamento, TipoSoggetto> = {
  dipendente: 'persona_fisica', pensionato: 'persona_fisica', studente: 'persona_fisica', locatore: 'persona_fisica', acquisto_casa: 'persona_fisica',
  acquisto_auto: 'persona_fisica', investitore_cripto: 'persona_fisica', saltuario: 'persona_fisica', nuovo_cliente: 'persona_fisica',
  professionista: 'ditta_individuale', negozio_contanti: 'ditta_individuale', stagionale: 'ditta_individuale', datore_lavoro: 'societa', commercio_estero: 'societa',
};

function cashUse(rng: Casuale, c: Comportamento): UsoContanti {
  if (c === 'negozio_contanti') return rng.chance(0.85) ? 'alto' : 'medio';
  if (c === 'stagionale') return rng.weighted([['alto', 3], ['medio', 5], ['basso', 2]] as const);
  if (c === 'datore_lavoro' || c === 'commercio_estero') return rng.weighted([['nessuno', 5], ['basso', 4], ['medio', 1]] as const);
  if (c === 'pensionato') return rng.weighted([['basso', 3], ['medio', 5], ['alto', 2]] as const);
  return rng.weighted([['nessuno', 20], ['basso', 45], ['medio', 28], ['alto', 7]] as const);
}

function buildCustomer(ctx: Ctx, i: number, tipologia: TipologiaPiantata | null): ClienteGenerato {
  const rng = new Casuale(`${ctx.seed}:cliente:${i}`);
  const cod = codOf(i);
  const comportamento = hostFor(rng, tipologia);
  // A business may be a company as well as a sole trader (a shop run as an S.r.l.).
  let tipo = SOGGETTO[comportamento];
  if ((comportamento === 'negozio_contanti' || comportamento === 'stagionale') && rng.chance(0.3)) tipo = 'societa';
  if (comportamento === 'professionista' && rng.chance(0.1)) tipo = 'societa';

  // Onboarding: years before the history for most; during the year for new customers.
  const nuovo = comportamento === 'nuovo_cliente';
  const onboarding = nuovo ? rng.int(ctx.dal, ctx.al - 60) : ctx.storicoDal - rng.int(30, 365 * 20);
  let usoContanti = cashUse(rng, comportamento);
  if (tipologia === 'incoerenza_profilo_contanti') usoContanti = 'nessuno';
  if (tipologia === 'contanti_oltre_soglia' || tipologia === 'strutturazione_contanti') usoContanti = rng.weighted([['nessuno', 2], ['basso', 5], ['medio', 3]] as const);

  const anagrafica = names(rng, tipo, comportamento);
  const scala = scaleOf(rng, comportamento);
  const startActivity = Math.max(ctx.storicoDal, onboarding);
  const s = new Storia(rng, cod, `${cod}-C`, startActivity, ctx.al);
  const o: ord.Ordinario = { rng, s, paesi: ctx.paesiOrdinari, uso_contanti: usoContanti, scala };
  const giornoAnno = () => rng.int(ctx.dal + 20, ctx.al - 45);
  let professione: string | null = null;
  let ateco: string | null = null;
  switch (comportamento) {
    case 'dipendente': case 'nuovo_cliente': ord.dipendente(o); professione = rng.pick(PROFESSIONI_DIPENDENTE); break;
    case 'pensionato': ord.dipendente(o, true); professione = 'pensionato'; break;
    case 'studente': ord.studente(o); professione = 'studente'; break;
    case 'locatore': ord.locatore(o); professione = rng.pick([...PROFESSIONI_DIPENDENTE, 'pensionato']); break;
    case 'acquisto_casa': ord.acquistoCasa(o, giornoAnno()); professione = rng.pick(PROFESSIONI_DIPENDENTE); break;
    case 'acquisto_auto': ord.acquistoAuto(o, giornoAnno()); professione = rng.pick(PROFESSIONI_DIPENDENTE); break;
    case 'investitore_cripto': ord.investitoreCripto(o); professione = rng.pick(PROFESSIONI_DIPENDENTE); break;
    case 'saltuario': ord.saltuario(o); professione = rng.pick([...PROFESSIONI_DIPENDENTE, 'casalinga', 'disoccupato']); break;
    case 'professionista': { const p = rng.pick(PROFESSIONISTI); ord.professionista(o); professione = p.professione; ateco = p.ateco; break; }
    case 'negozio_contanti': { const n = rng.pick(NEGOZI_CONTANTI); ord.negozioContanti(o, rng.int(0, 4)); ateco = n.ateco; anagrafica.denominazione = `${n.attivita} ${anagrafica.denominazione}`; break; }
    case 'stagionale': { const n = rng.pick(STAGIONALI); ord.stagionale(o); ateco = n.ateco; anagrafica.denominazione = `${n.attivita} ${anagrafica.denominazione}`; break; }
    case 'datore_lavoro': { const d = rng.pick(DATORI); ord.datoreLavoro(o, Math.min(150, Math.max(3, Math.round(rng.lognormal(12, 0.9))))); ateco = d.ateco; break; }
    case 'commercio_estero': { const d = rng.pick(COMMERCIO_ESTERO); ord.commercioEstero(o); ateco = d.ateco; break; }
  }
  if (tipo === 'persona_fisica' && anagrafica.nome) anagrafica.denominazione = `${anagrafica.nome} ${anagrafica.cognome}`;

  const etichette: Etichetta[] = [];
  if (tipologia) {
    let giorno = tipologia === 'incoerenza_profilo_volume' ? rng.int(ctx.dal + 20, ctx.al - 95) : giornoAnno();
    if (tipologia === 'riattivazione_dormiente') {
      // Silent for six months to a year before the reactivation: the ordinary history stops at `ultimo`.
      const gap = rng.int(185, 330);
      giorno = Math.max(giorno, startActivity + gap + 20);
      const ultimo = giorno - gap;
      const last = dayString(ultimo);
      s.filter((m) => m.data_operazione <= last);
    }
    const label = pianta(tipologia, {
      rng, s, scala, paesi_alto_rischio: ctx.opts.paesi_alto_rischio, paesi_ordinari: ctx.paesiOrdinari, sanzionati: ctx.opts.indirizzi_sanzionati, tenant: ctx.indirizziTenant,
    }, giorno);
    if (label) etichette.push(label);
  }
  s.movimenti.sort(compareMovements);

  const volumeMensile = declaredVolume(rng, s.movimenti, startActivity, ctx.dal, comportamento);
  const rapporti: RapportoMonitorato[] = [{ cod_rapporto: `${cod}-C`, tipo: tipo === 'persona_fisica' ? 'conto corrente' : 'conto corrente aziendale', data_apertura: dayString(onboarding), intestatari: [cod] }];
  if (s.movimenti.some((m) => m.cod_rapporto === `${cod}-W`)) {
    rapporti.push({ cod_rapporto: `${cod}-W`, tipo: 'wallet', data_apertura: dayString(Math.min(onboarding + rng.int(0, 400), startActivity)), intestatari: [cod] });
  }
  const profilo: ProfiloCliente = {
    cod_anagrafe: cod, codice_esterno: cod, tipo_soggetto: tipo, ateco, professione,
    pep: rng.chance(0.01), classe_rischio: rng.weighted([['basso', 60], ['medio', 32], ['medio_alto', 6], ['alto', 2]] as const),
    paese_residenza: rng.chance(0.03) ? rng.pick(['DE', 'FR', 'ES', 'CH', 'RO', 'AL']) : 'IT',
    data_nascita: tipo === 'persona_fisica' ? dayString(dayNumber('2025-01-01') - Math.round(365.25 * ageOf(rng, comportamento)) + rng.int(0, 364)) : null,
    data_onboarding: dayString(onboarding), volume_mensile_atteso_eur: volumeMensile, uso_contanti_atteso: usoContanti, rapporti,
  };
  return { profilo, anagrafica, comportamento, movimenti: s.movimenti, etichette };
}

function ageOf(rng: Casuale, c: Comportamento): number {
  if (c === 'pensionato') return rng.int(66, 90);
  if (c === 'studente') return rng.int(19, 27);
  return rng.int(24, 64);
}

/** Monthly money: a net salary or pension, or a business's monthly turnover. */
function scaleOf(rng: Casuale, c: Comportamento): number {
  switch (c) {
    case 'pensionato': return Math.min(5000, Math.max(600, rng.lognormal(1300, 0.35)));
    case 'studente': return 400;
    case 'professionista': return rng.lognormal(6000, 0.6);
    case 'negozio_contanti': return rng.lognormal(25_000, 0.6);
    case 'stagionale': return rng.lognormal(40_000, 0.7);
    case 'datore_lavoro': return rng.lognormal(120_000, 0.9);
    case 'commercio_estero': return rng.lognormal(150_000, 0.8);
    default: return Math.min(9000, Math.max(900, rng.lognormal(1750, 0.35)));
  }
}

/**
 * What the customer declared at onboarding: roughly the monthly volume (in and out) the ordinary
 * history shows, with the imprecision of a declaration (some declare half, some double), rounded
 * as people write figures.
 */
function declaredVolume(rng: Casuale, movimenti: readonly { data_operazione: string; importo_eur: number }[], from: number, to: number, c: Comportamento): number {
  const a = dayString(from);
  const b = dayString(to);
  let sum = 0;
  for (const m of movimenti) if (m.data_operazione >= a && m.data_operazione < b) sum += m.importo_eur;
  const months = Math.max(1, (to - from) / 30.4);
  let monthly = from < to ? sum / months : 0;
  if (monthly <= 0) monthly = c === 'nuovo_cliente' ? rng.lognormal(3500, 0.4) : 1000;
  const declared = monthly * rng.lognormal(1.1, 0.35);
  const step = declared >= 20_000 ? 5000 : declared >= 5000 ? 500 : 100;
  return Math.max(step, Math.round(declared / step) * step);
}

function names(rng: Casuale, tipo: TipoSoggetto, c: Comportamento): AnagraficaGenerata {
  const sesso = rng.chance(0.5) ? 'M' : 'F';
  const nome = rng.pick(sesso === 'M' ? NOMI_M : NOMI_F);
  const cognome = rng.pick(COGNOMI);
  const comune = rng.pick(COMUNI);
  if (tipo === 'persona_fisica') return { nome, cognome, denominazione: `${nome} ${cognome}`, sesso, comune_nascita: comune };
  if (tipo === 'ditta_individuale') return { nome, cognome, denominazione: `${cognome} ${nome}`, sesso, comune_nascita: comune };
  const base = c === 'datore_lavoro' || c === 'commercio_estero' ? `${rng.pick(NOMI_AZIENDA)} ${rng.pick(NOMI_AZIENDA)}` : cognome;
  return { nome: null, cognome: null, denominazione: `${base} ${rng.pick(FORME)}`, sesso: null, comune_nascita: comune };
}


