import { dayNumber, dayString } from '../../src/domains/monitoring/engine/engine.dates';
import {
  peerAggregates, peerStatistics, replayCustomer, StoricoIndicizzato, type CandidatoAlert, type ProfiloCliente, type StatistichePari,
} from '../../src/domains/monitoring/engine';
import { ruleSetFor, type RuleVersionData } from '../../src/domains/monitoring/evaluation/rule-set';
import { pianoAnno, TIPOLOGIE_PIANTATE, type Etichetta, type TipologiaPiantata } from '../../src/domains/monitoring/generator';
import { listsFor, qualityReference, type RiferimentiQualita } from './quality-reference';

/**
 * Detection quality on the generated labelled year (issue 23's targets), pure and in memory: the
 * year is generated, the rule set is replayed over it day by day per customer as the daily batch
 * would have run (replayCustomer, with the peer medians of each day when a rule reads peer_ratio),
 * and every hit is judged against the labels:
 * - recall per typology: the share of planted patterns with a hit of a rule of that typology on
 *   the same customer between the pattern's first and last day (both included; a hit that joins an
 *   open alert counts: the alert covers it);
 * - false alerts: alerts raised (new after deduplication) on clean customers (nothing planted),
 *   per 10,000 clean customers per year, overall and per rule.
 */

export interface OpzioniQualita {
  regole: readonly RuleVersionData[];
  clienti?: number;
  seed?: string | number;
  mesi?: number;
  /** Months of history before the labelled period (the generator's default, 6, when omitted). */
  mesi_storico?: number;
  quota_per_tipologia?: number;
  /** Reference data (lists, sanctioned addresses); read from the data files when omitted. */
  riferimenti?: RiferimentiQualita;
  /** Progress on stderr or wherever the caller wants it. */
  log?: (m: string) => void;
}

export interface RecallTipologia { tipologia: TipologiaPiantata; piantati: number; allertati: number; recall: number }
export interface FalsiRegola { cod_regola: string; tipologia: string; alert_falsi: number; per_10000_clienti_anno: number }

export interface MisuraQualita {
  clienti: number;
  clienti_puliti: number;
  movimenti: number;
  periodo: { dal: string; al: string };
  regole: number;
  /** Versions the engine refused (named with the reason). */
  regole_escluse: { cod_regola: string; motivo: string }[];
  recall: RecallTipologia[];
  /** The lowest recall among the typologies. */
  recall_minima: number;
  alert_totali: number;
  alert_falsi: number;
  falsi_per_10000_clienti_anno: number;
  falsi_per_regola: FalsiRegola[];
  secondi: { generazione: number; pari: number; replay: number; totale: number };
}

const secs = (ms: number) => +(ms / 1000).toFixed(2);

export function measureQuality(opts: OpzioniQualita): MisuraQualita {
  const t0 = performance.now();
  const log = opts.log ?? (() => {});
  const ref = opts.riferimenti ?? qualityReference();
  const piano = pianoAnno({
    clienti: opts.clienti ?? 10_000, seed: opts.seed ?? 'monitoraggio', mesi: opts.mesi ?? 12, mesi_storico: opts.mesi_storico, quota_per_tipologia: opts.quota_per_tipologia,
    paesi_alto_rischio: ref.paesi_alto_rischio, paesi_da_evitare: ref.paesi_da_evitare, indirizzi_sanzionati: ref.indirizzi_sanzionati,
  });
  const set = ruleSetFor(`quality:${String(opts.seed ?? '')}`, [...opts.regole], listsFor(ref, piano.indirizzi_tenant));
  const { regole } = set;

  // Generate every customer once: its indexed history and labels (the movement objects are dropped).
  const clienti: { profilo: ProfiloCliente; storico: StoricoIndicizzato; etichette: Etichetta[] }[] = [];
  let movimenti = 0;
  for (let i = 0; i < piano.clienti; i++) {
    const c = piano.cliente(i);
    movimenti += c.movimenti.length;
    clienti.push({ profilo: c.profilo, storico: StoricoIndicizzato.fromMovements(c.movimenti), etichette: c.etichette });
    if ((i + 1) % 2000 === 0) log(`generated ${i + 1}/${piano.clienti} customers`);
  }
  const t1 = performance.now();

  // Peer medians of every day, as the daily batch computes them, when a rule reads them.
  const pari = new Map<string, StatistichePari>();
  if (peerAggregates(regole).length) {
    for (let d = dayNumber(piano.dal); d <= dayNumber(piano.al); d++) pari.set(dayString(d), peerStatistics(regole, clienti, dayString(d)));
    log(`peer medians for ${pari.size} days`);
  }
  const t2 = performance.now();

  const detected = new Map<TipologiaPiantata, number>();
  const planted = new Map<TipologiaPiantata, number>();
  const falsePerRule = new Map<string, { tipologia: string; n: number }>();
  let alertTotali = 0;
  let alertFalsi = 0;
  let puliti = 0;
  for (let i = 0; i < clienti.length; i++) {
    const c = clienti[i]!;
    const { candidati } = replayCustomer(regole, { profilo: c.profilo, storico: c.storico, dal: piano.dal, al: piano.al, pari: pari.size ? (g) => pari.get(g) : undefined });
    const raised = candidati.filter((h) => !set.osserva.has(h.versione_id));
    const nuovi = raised.filter((h) => h.dedup === 'nuovo');
    alertTotali += nuovi.length;
    if (!c.etichette.length) {
      puliti += 1;
      alertFalsi += nuovi.length;
      for (const h of nuovi) {
        const r = falsePerRule.get(h.cod_regola) ?? { tipologia: h.tipologia, n: 0 };
        r.n += 1;
        falsePerRule.set(h.cod_regola, r);
      }
    }
    for (const e of c.etichette) {
      planted.set(e.tipologia, (planted.get(e.tipologia) ?? 0) + 1);
      if (raised.some((h) => withinWindow(h, e))) detected.set(e.tipologia, (detected.get(e.tipologia) ?? 0) + 1);
    }
    if ((i + 1) % 2000 === 0) log(`replayed ${i + 1}/${clienti.length} customers`);
  }
  const t3 = performance.now();

  const years = (dayNumber(piano.al) - dayNumber(piano.dal) + 1) / 365;
  const per10k = (n: number) => (puliti ? +(n * 10_000 / puliti / years).toFixed(1) : 0);
  const recall = TIPOLOGIE_PIANTATE.map((t) => {
    const p = planted.get(t) ?? 0;
    const a = detected.get(t) ?? 0;
    return { tipologia: t, piantati: p, allertati: a, recall: p ? +(a / p).toFixed(3) : 0 };
  });
  return {
    clienti: piano.clienti, clienti_puliti: puliti, movimenti, periodo: { dal: piano.dal, al: piano.al }, regole: regole.versioni.length,
    regole_escluse: set.escluse.map((e) => ({ cod_regola: e.cod_regola, motivo: e.motivo })),
    recall, recall_minima: Math.min(...recall.map((r) => r.recall)),
    alert_totali: alertTotali, alert_falsi: alertFalsi, falsi_per_10000_clienti_anno: per10k(alertFalsi),
    falsi_per_regola: [...falsePerRule].map(([cod, r]) => ({ cod_regola: cod, tipologia: r.tipologia, alert_falsi: r.n, per_10000_clienti_anno: per10k(r.n) }))
      .sort((a, b) => b.alert_falsi - a.alert_falsi),
    secondi: { generazione: secs(t1 - t0), pari: secs(t2 - t1), replay: secs(t3 - t2), totale: secs(t3 - t0) },
  };
}

/** A hit of a rule of the pattern's typology on its customer, raised between its first and last day. */
export function withinWindow(h: Pick<CandidatoAlert, 'cod_anagrafe' | 'tipologia' | 'data_rilevazione'>, e: Etichetta): boolean {
  return h.cod_anagrafe === e.cod_anagrafe && h.tipologia === e.tipologia && h.data_rilevazione >= e.dal && h.data_rilevazione <= e.al;
}
