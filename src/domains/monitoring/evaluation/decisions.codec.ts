import { randomBytes } from 'node:crypto';
import type { Lettura } from '../../../kit/conditions';
import type { EsitoRegola, Giorno } from '../engine';
import type { EsclusaRegola } from './rule-set';

/**
 * A decision's rules in compact form (monitoring_decisioni.regole): one small object per rule
 * with one-letter keys, the reads as [path, value] pairs. Real time writes thousands a second and
 * each decision holds every rule, so the keys are paid for millions of times; the API and the
 * pages read the decoded form only.
 *
 *   r cod_regola · n version · i version id · t typology · f fired (1/0) · p score · x outcome
 *   (alert, blocco, osserva; fired rules only) · k relationship · l reads · e error [code, message]
 */
export interface RegolaCompatta {
  r: string; n: number; i: string; t: string; f: 0 | 1; p: number; x?: string; k?: string; l: [string, unknown][]; e?: [string, string];
}

export interface RegolaDecisa {
  cod_regola: string;
  versione: number;
  versione_id: string;
  tipologia: string;
  vero: boolean;
  punteggio: number;
  /** What the rule asks when it fires (alert, blocco, osserva: recorded, no alert); null when it did not fire. */
  esito: string | null;
  cod_rapporto: string | null;
  letti: Lettura[];
  errore: { codice: string; messaggio: string } | null;
}

export function encodeRules(regole: readonly EsitoRegola[], osserva: ReadonlySet<string>, escluse: readonly EsclusaRegola[] = []): RegolaCompatta[] {
  const out: RegolaCompatta[] = regole.map((r) => ({
    r: r.cod_regola, n: r.versione, i: r.versione_id, t: r.tipologia, f: r.vero ? 1 : 0, p: r.punteggio,
    ...(r.vero ? { x: osserva.has(r.versione_id) ? 'osserva' : r.esito ?? 'alert' } : {}),
    ...(r.cod_rapporto ? { k: r.cod_rapporto } : {}),
    l: r.letti.map((l) => [l.path, l.valore] as [string, unknown]),
    ...(r.errore ? { e: [r.errore.codice, r.errore.messaggio] as [string, string] } : {}),
  }));
  // A version the engine could not take still shows, as an outcome that could not be evaluated.
  for (const x of escluse) out.push({ r: x.cod_regola, n: x.versione, i: x.versione_id, t: x.tipologia, f: 0, p: 0, l: [], e: ['regola_non_valida', x.motivo] });
  return out;
}

export function decodeRules(regole: readonly RegolaCompatta[]): RegolaDecisa[] {
  return regole.map((c) => ({
    cod_regola: c.r, versione: c.n, versione_id: c.i, tipologia: c.t, vero: c.f === 1, punteggio: c.p, esito: c.x ?? null,
    cod_rapporto: c.k ?? null, letti: (c.l ?? []).map(([path, valore]) => ({ path, valore })),
    errore: c.e ? { codice: c.e[0], messaggio: c.e[1] } : null,
  }));
}

const CODE = /^DEC-(\d{4})(\d{2})(\d{2})-[0-9A-Z]{10,16}$/;

/** A new decision code for a day: `DEC-YYYYMMDD-` and 13 random base-36 characters (the day names the partition). */
export function newDecisionCode(giorno: Giorno): string {
  const n = randomBytes(8).readBigUInt64BE();
  return `DEC-${giorno.replaceAll('-', '')}-${n.toString(36).toUpperCase().padStart(13, '0')}`;
}

/** The day a decision code carries, or null when it is not a decision code. */
export function dayOfDecisionCode(code: string): Giorno | null {
  const m = CODE.exec(code);
  if (!m) return null;
  const day = `${m[1]}-${m[2]}-${m[3]}`;
  const d = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(day) ? day : null;
}
