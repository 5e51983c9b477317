import { CLASSI, type Classe } from '../risk.types';

/** A contribution as the runs compare it: the rule's code and name and its points (stored rows or a fresh score). */
export interface ContributoConfrontato { codice: string; nome: string; punti: number }

/** One rule whose contribution differs between the class in force and the new calculation. */
export interface Differenza { codice: string; nome: string; prima: number | null; dopo: number | null }

/**
 * The contributions that differ between the customer's current calculation and the new one, by
 * rule code: a rule that fires in one and not the other (null on the silent side), or fires
 * with other points. Largest change first, then by code, so the explanation reads from the
 * rule that moved the score most. Equal contributions are left out: the "why" of a dry run.
 */
export function contributionDiff(prima: readonly ContributoConfrontato[] | null | undefined, dopo: readonly ContributoConfrontato[]): Differenza[] {
  const before = new Map<string, ContributoConfrontato>();
  for (const c of prima ?? []) before.set(c.codice, { codice: c.codice, nome: c.nome, punti: (before.get(c.codice)?.punti ?? 0) + c.punti });
  const after = new Map<string, ContributoConfrontato>();
  for (const c of dopo) after.set(c.codice, { codice: c.codice, nome: c.nome, punti: (after.get(c.codice)?.punti ?? 0) + c.punti });
  const out: Differenza[] = [];
  for (const codice of new Set([...before.keys(), ...after.keys()])) {
    const b = before.get(codice);
    const a = after.get(codice);
    if (b && a && b.punti === a.punti) continue;
    out.push({ codice, nome: a?.nome ?? b!.nome, prima: b ? b.punti : null, dopo: a ? a.punti : null });
  }
  const delta = (d: Differenza) => Math.abs((d.dopo ?? 0) - (d.prima ?? 0));
  return out.sort((x, y) => delta(y) - delta(x) || x.codice.localeCompare(y.codice));
}

/** The class key of a customer never classified, in the summary's counts and matrix. */
export const NESSUNA = 'nessuna';
export type ClasseOrNessuna = Classe | typeof NESSUNA;

/**
 * A run's summary (rischio_esecuzioni.riepilogo): counts by class before and after, the
 * from→to matrix, and how many moved up or down. Merged batch by batch, so it is never
 * recomputed from the results.
 */
export interface Riepilogo {
  prima: Record<string, number>;
  dopo: Record<string, number>;
  /** matrice[da][a]: customers whose class in force is `da` and whose calculated class is `a`. */
  matrice: Record<string, Record<string, number>>;
  salite: number;
  discese: number;
  /** Customers whose assessment could not be started (recalculation only): the next run retries them. */
  avvii_falliti?: number;
  /** Assessments started (recalculation only). */
  valutazioni_avviate?: number;
}

export const emptyRiepilogo = (): Riepilogo => ({ prima: {}, dopo: {}, matrice: {}, salite: 0, discese: 0 });

const rank = (c: ClasseOrNessuna) => (c === NESSUNA ? -1 : CLASSI.indexOf(c));

/** Adds one customer's move to a summary (in place). A customer with no class in force counts as moving up. */
export function countMove(r: Riepilogo, da: Classe | null, a: Classe): void {
  const from: ClasseOrNessuna = da ?? NESSUNA;
  r.prima[from] = (r.prima[from] ?? 0) + 1;
  r.dopo[a] = (r.dopo[a] ?? 0) + 1;
  const row = (r.matrice[from] ??= {});
  row[a] = (row[a] ?? 0) + 1;
  if (rank(a) > rank(from)) r.salite++;
  else if (rank(a) < rank(from)) r.discese++;
}

/** The sum of two summaries (a batch's added to the run's so far). */
export function mergeRiepilogo(x: Partial<Riepilogo>, y: Riepilogo): Riepilogo {
  const add = (p: Record<string, number> = {}, q: Record<string, number>) => {
    const o = { ...p };
    for (const [k, v] of Object.entries(q)) o[k] = (o[k] ?? 0) + v;
    return o;
  };
  const matrice: Record<string, Record<string, number>> = { ...(x.matrice ?? {}) };
  for (const [da, row] of Object.entries(y.matrice)) matrice[da] = add(matrice[da], row);
  const out: Riepilogo = {
    prima: add(x.prima, y.prima), dopo: add(x.dopo, y.dopo), matrice,
    salite: (x.salite ?? 0) + y.salite, discese: (x.discese ?? 0) + y.discese,
  };
  if (x.avvii_falliti !== undefined || y.avvii_falliti !== undefined) out.avvii_falliti = (x.avvii_falliti ?? 0) + (y.avvii_falliti ?? 0);
  if (x.valutazioni_avviate !== undefined || y.valutazioni_avviate !== undefined) out.valutazioni_avviate = (x.valutazioni_avviate ?? 0) + (y.valutazioni_avviate ?? 0);
  return out;
}
