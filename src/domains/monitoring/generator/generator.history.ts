import { dayString, isoWeekday } from '../engine/engine.dates';
import type { MovimentoMonitorato, Segno } from '../engine/engine.types';
import { cents, type Casuale } from './generator.random';

/**
 * One customer's history being written: movements with ids unique within it (`<cod>-<n>`), days
 * as day numbers, times of day when the source would have them (card and counter operations;
 * standing orders and batch credits often come without).
 */

export type Extra = Partial<Omit<MovimentoMonitorato, 'id' | 'cod_anagrafe' | 'data_operazione' | 'importo_eur' | 'segno'>>;

export class Storia {
  readonly movimenti: MovimentoMonitorato[] = [];
  private seq = 0;

  constructor(readonly rng: Casuale, readonly cod: string, public rapporto: string, readonly dal: number, readonly al: number) {}

  /** A movement on `day` (moved to the next working day for bank transfers when `feriale`). */
  add(day: number, importo: number, segno: Segno, extra: Extra = {}, opts: { feriale?: boolean } = {}): MovimentoMonitorato | null {
    let d = day;
    if (opts.feriale) while (isoWeekday(d) > 5) d += 1;
    if (d < this.dal || d > this.al) return null;
    const amount = cents(importo);
    if (!(amount > 0)) return null;
    const m: MovimentoMonitorato = {
      id: `${this.cod}-${++this.seq}`, cod_anagrafe: this.cod, cod_rapporto: extra.cod_rapporto ?? this.rapporto, data_operazione: dayString(d),
      ora_operazione: extra.ora_operazione !== undefined ? extra.ora_operazione : this.ora(extra.canale ?? null),
      importo_eur: amount, segno, contanti: extra.contanti ?? false, causale: extra.causale ?? null, canale: extra.canale ?? null,
      controparte_nome: extra.controparte_nome ?? null, controparte_conto: extra.controparte_conto ?? null,
      controparte_paese: extra.controparte_paese !== undefined ? extra.controparte_paese : (extra.controparte_conto ? 'IT' : null),
      ...(extra.cod_anagrafe_esecutore ? { cod_anagrafe_esecutore: extra.cod_anagrafe_esecutore } : {}),
      ...(extra.indirizzo_controparte ? { indirizzo_controparte: extra.indirizzo_controparte, asset: extra.asset ?? null, chain: extra.chain ?? null, hash: extra.hash ?? null } : {}),
    };
    this.movimenti.push(m);
    return m;
  }

  /** Batch credits and direct debits mostly come without a time; counter, card and online ones with one. */
  private ora(canale: string | null): string | null {
    if (canale === 'addebito_diretto' || canale === 'flusso') return this.rng.chance(0.8) ? null : '06:00';
    if (this.rng.chance(0.1)) return null;
    const h = canale === 'sportello' ? this.rng.int(8, 16) : Math.min(23, Math.max(0, Math.round(13 + 4 * this.rng.normal())));
    return `${String(h).padStart(2, '0')}:${String(this.rng.int(0, 59)).padStart(2, '0')}`;
  }

  /** Drops the movements for which `keep` is false (a dormant customer's silence). */
  filter(keep: (m: MovimentoMonitorato) => boolean): void {
    const kept = this.movimenti.filter(keep);
    this.movimenti.length = 0;
    this.movimenti.push(...kept);
  }
}

/** Every month start (day numbers) from the month of `dal` to `al`. */
export function monthStarts(dal: number, al: number): number[] {
  const out: number[] = [];
  const d = new Date(dal * 86_400_000);
  let y = d.getUTCFullYear();
  let m = d.getUTCMonth();
  for (;;) {
    const t = Date.UTC(y, m, 1) / 86_400_000;
    if (t > al) break;
    out.push(t);
    m += 1;
    if (m === 12) { m = 0; y += 1; }
  }
  return out;
}

/** The month (1–12) of a day number. */
export const monthOf = (day: number) => new Date(day * 86_400_000).getUTCMonth() + 1;
/** Days in the month starting at `start`. */
export const monthLength = (start: number) => {
  const d = new Date(start * 86_400_000);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).getTime() / 86_400_000 - start;
};
