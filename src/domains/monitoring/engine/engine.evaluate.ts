import { ConditionEvaluationError, type Aggregato, type ContestoCondizione, type FonteAggregati } from '../../../kit/conditions';
import { aggregateMovements, computeAggregate, type Punto } from './engine.aggregates';
import { addDays, dayNumber, dayString } from './engine.dates';
import { applyHit, type Hit } from './engine.dedup';
import { customerData, DECLARED_DAYS, DECLARED_FIELD, eventData, relationshipData } from './engine.fields';
import type { ListeNormalizzate } from './engine.filters';
import { StoricoIndicizzato } from './engine.history';
import { peerBaseAggregate, peerGroup } from './engine.peers';
import type { RegolaPreparata, RegolePreparate } from './engine.rules';
import type {
  CandidatoAlert, Decisione, EsitoRegola, Giorno, MovimentoMonitorato, ProfiloCliente, RapportoMonitorato, StatistichePari, StatoDedup,
} from './engine.types';

/**
 * The evaluator (docs/monitoring.md "Evaluation paths"): one customer's rules at one point of
 * their history, real time (an event: the window ends at it, itself included) or the close of a
 * day (daily rules, for a customer who moved that day). Aggregates are computed when a condition
 * reaches them and remembered for the point, so rules that share one compute it once and a rule
 * whose first condition is false computes none. A Valutatore serves one customer and history; a
 * replay moves it forward day by day (engine.replay.ts), real time makes one per event.
 */

/** Most operations a hit names (its window's, in order). */
export const MAX_EVIDENCE_MOVEMENTS = 200;

/** The aggregates of one point, computed on demand and remembered until the point changes. */
class Fonte implements FonteAggregati {
  readonly memo = new Map<string, number | null>();
  constructor(readonly p: Punto, readonly liste: ListeNormalizzate, public pari: StatistichePari | undefined, readonly gruppo: string) {}
  valore(a: Aggregato, chiave: string): number | null {
    const known = this.memo.get(chiave);
    if (known !== undefined) return known;
    let v = computeAggregate(this.p, a, this.liste);
    if (a.fn === 'peer_ratio') {
      const median = this.pari?.mediane[this.gruppo]?.[peerBaseAggregate(a).key];
      v = v !== null && median !== undefined && median > 0 ? v / median : null;
    }
    this.memo.set(chiave, v);
    return v;
  }
}

const errorOf = (e: unknown) => (e instanceof ConditionEvaluationError ? { codice: e.codice, messaggio: e.message } : null);

export class Valutatore {
  private readonly p: Punto;
  private readonly fonte: Fonte;
  private readonly ctx: ContestoCondizione;
  private readonly rapporti: Map<string, RapportoMonitorato>;
  private cachedDay = '';
  private cachedCustomer: ReturnType<typeof customerData> | null = null;

  constructor(
    private readonly regole: RegolePreparate, private readonly profilo: ProfiloCliente, readonly h: StoricoIndicizzato,
    pari: StatistichePari | undefined, private readonly stato: StatoDedup,
  ) {
    this.p = { h, end: 0, t: 0, evento: -1, rapporto: -1 };
    this.fonte = new Fonte(this.p, regole.liste, pari, peerGroup(profilo));
    this.ctx = {
      dati: null, aggregati: {}, fonte: this.fonte, liste: regole.liste, oggi: '', campoDichiarato: DECLARED_FIELD, giorniDichiarato: DECLARED_DAYS,
    };
    this.rapporti = new Map(profilo.rapporti.map((r) => [r.cod_rapporto, r]));
  }

  /** Peer statistics for the evaluations that follow (the daily batch's of the day). */
  set pari(pari: StatistichePari | undefined) { this.fonte.pari = pari; }

  private customer(giorno: Giorno) {
    if (giorno !== this.cachedDay || !this.cachedCustomer) { this.cachedCustomer = customerData(this.profilo, giorno); this.cachedDay = giorno; }
    return this.cachedCustomer;
  }

  private moveTo(end: number, t: number, evento: number, rapporto: number) {
    this.p.end = end;
    this.p.t = t;
    this.p.evento = evento;
    this.p.rapporto = rapporto;
    this.fonte.memo.clear();
  }

  /** Real time: the event at index i of the history (everything after it is invisible). */
  evento(i: number): Decisione {
    const m = this.h.movimenti[i]!;
    const giorno = m.data_operazione;
    this.moveTo(i + 1, this.h.day[i]!, i, this.h.rap[i]!);
    const r = this.rapporti.get(m.cod_rapporto);
    const c = this.customer(giorno);
    this.ctx.dati = { evento: eventData(m, r), cliente: c.cliente, dichiarato: c.dichiarato, rapporto: relationshipData(r, giorno) };
    this.ctx.oggi = giorno;
    const regole: EsitoRegola[] = [];
    const candidati: CandidatoAlert[] = [];
    this.run(this.regole.evento, giorno, m.id, m.cod_rapporto, regole, candidati);
    return this.decision('evento', giorno, m.id, regole, candidati);
  }

  /**
   * The close of day t (a day number) with the history up to `end` (exclusive): the daily rules,
   * a `livello: rapporto` one once per relationship that moved that day. Null when the customer did
   * not move that day (nothing to evaluate: see isDue).
   */
  giorno(t: number, end: number): Decisione | null {
    const start = this.h.lowerBound(t, 0, end);
    if (start >= end || this.h.day[start] !== t) return null;
    const giorno = dayString(t);
    const c = this.customer(giorno);
    const regole: EsitoRegola[] = [];
    const candidati: CandidatoAlert[] = [];
    this.ctx.oggi = giorno;
    const customerRules = this.regole.giornaliere.filter((x) => x.versione.livello === 'cliente');
    const relationshipRules = this.regole.giornaliere.filter((x) => x.versione.livello === 'rapporto');
    if (customerRules.length) {
      this.moveTo(end, t, -1, -1);
      this.ctx.dati = { cliente: c.cliente, dichiarato: c.dichiarato };
      this.run(customerRules, giorno, null, null, regole, candidati);
    }
    if (relationshipRules.length) {
      const seen = new Set<number>();
      for (let i = start; i < end; i++) {
        const rap = this.h.rap[i]!;
        if (seen.has(rap)) continue;
        seen.add(rap);
        const code = this.h.codiciRapporto[rap]!;
        this.moveTo(end, t, -1, rap);
        this.ctx.dati = { cliente: c.cliente, dichiarato: c.dichiarato, rapporto: relationshipData(this.rapporti.get(code), giorno) };
        this.run(relationshipRules, giorno, null, code, regole, candidati);
      }
    }
    return this.decision('giornaliera', giorno, null, regole, candidati);
  }

  private run(rules: readonly RegolaPreparata[], giorno: Giorno, movimentoId: string | null, codRapporto: string | null, out: EsitoRegola[], hits: CandidatoAlert[]) {
    for (const rule of rules) {
      const v = rule.versione;
      let result: EsitoRegola;
      try {
        const r = rule.condizione.evaluate(this.ctx);
        result = {
          versione_id: v.id, cod_regola: v.cod_regola, versione: v.versione, tipologia: v.tipologia, cod_rapporto: v.livello === 'rapporto' ? codRapporto : null,
          vero: r.vero, punteggio: r.vero ? v.punteggio : 0, esito: r.vero ? v.esito : null, letti: r.letti, costo: r.costo, errore: null,
        };
      } catch (e) {
        const errore = errorOf(e);
        if (!errore) throw e;
        result = {
          versione_id: v.id, cod_regola: v.cod_regola, versione: v.versione, tipologia: v.tipologia, cod_rapporto: v.livello === 'rapporto' ? codRapporto : null,
          vero: false, punteggio: 0, esito: null, letti: [], costo: 0, errore,
        };
      }
      out.push(result);
      if (!result.vero) continue;
      const hit: Hit = {
        cod_anagrafe: this.profilo.cod_anagrafe, cod_regola: v.cod_regola, versione_id: v.id, versione: v.versione, tipologia: v.tipologia,
        indicatori: v.indicatori, punteggio: v.punteggio, esito: v.esito, data_rilevazione: giorno, movimento_id: movimentoId,
        cod_rapporto: codRapporto, finestra: { dal: addDays(giorno, -(v.finestra_dedup_giorni - 1)), al: giorno },
        movimenti: this.evidence(rule, result), letti: result.letti,
      };
      hits.push(applyHit(this.stato, hit, v.finestra_dedup_giorni));
    }
  }

  /** The operations behind a hit: what each aggregate it read counted, and the evaluated movement. */
  private evidence(rule: RegolaPreparata, result: EsitoRegola): string[] {
    const indices: number[] = [];
    for (const l of result.letti) {
      const a = rule.aggregati.get(l.path);
      if (a && l.valore !== null) aggregateMovements(this.p, a, this.regole.liste, indices, MAX_EVIDENCE_MOVEMENTS);
    }
    if (this.p.evento >= 0) indices.push(this.p.evento);
    const unique = [...new Set(indices)].sort((x, y) => x - y).slice(0, MAX_EVIDENCE_MOVEMENTS);
    return unique.map((i) => this.h.movimenti[i]!.id);
  }

  private decision(tipo: Decisione['tipo'], giorno: Giorno, movimentoId: string | null, regole: EsitoRegola[], candidati: CandidatoAlert[]): Decisione {
    let punteggio = 0;
    let esito: Decisione['esito'] = 'nessuna_anomalia';
    for (const r of regole) {
      if (!r.vero) continue;
      punteggio += r.punteggio;
      if (r.esito === 'blocco') esito = 'blocco';
      else if (esito === 'nessuna_anomalia') esito = 'alert';
    }
    return {
      cod_anagrafe: this.profilo.cod_anagrafe, tipo, giorno, movimento_id: movimentoId, esito, punteggio, regole,
      versioni_regole: { ...this.regole.versioni_regole }, versioni_liste: { ...this.regole.versioni_liste }, candidati,
    };
  }
}

/** What real time is given: the customer, their stored history (the event may be in it) and the event. */
export interface InputEvento {
  profilo: ProfiloCliente;
  /** The stored movements over at least `regole.giorni_storico` days before the event. */
  storico: readonly MovimentoMonitorato[];
  evento: MovimentoMonitorato;
  pari?: StatistichePari;
  /** The customer's latest alert per rule (updated in place); omitted: none. */
  stato?: StatoDedup;
}

/** Real time: evaluates the event rules on one movement or KYT event, the window ending at it (itself included). */
export function evaluateEvent(regole: RegolePreparate, input: InputEvento): Decisione {
  const { evento, storico } = input;
  const movimenti = storico.some((m) => m.id === evento.id) ? storico : [...storico, evento];
  const h = StoricoIndicizzato.fromMovements(movimenti);
  return new Valutatore(regole, input.profilo, h, input.pari, input.stato ?? new Map()).evento(h.indexOf(evento.id));
}

export interface InputGiorno {
  profilo: ProfiloCliente;
  /** The stored movements up to the day (later ones are ignored). */
  storico: readonly MovimentoMonitorato[];
  giorno: Giorno;
  pari?: StatistichePari;
  stato?: StatoDedup;
}

/** Daily batch: evaluates the daily rules at the close of `giorno`; null when the customer did not move that day. */
export function evaluateDay(regole: RegolePreparate, input: InputGiorno): Decisione | null {
  const h = StoricoIndicizzato.fromMovements(input.storico);
  const v = new Valutatore(regole, input.profilo, h, input.pari, input.stato ?? new Map());
  const t = dayNumber(input.giorno);
  return v.giorno(t, h.lowerBound(t + 1));
}

/** Does the daily batch evaluate this customer on `giorno`? When they have a movement that day. */
export function isDue(storico: readonly MovimentoMonitorato[], giorno: Giorno): boolean {
  return storico.some((m) => m.data_operazione === giorno);
}

