import type { Knex } from 'knex';
import { CLASSI, type Classe } from '../risk.types';

/**
 * The portfolio's figures, read from rischio_correnti (one row per scored customer: the class in
 * force is classe_effettiva, or the calculated one before any release) joined to the customer's
 * record for its segment and country. Every query carries the tenant predicate explicitly so it
 * reads the tenant's rows only (RLS would filter them too, but after reading them).
 * A deleted customer (stato 'eliminato') is no longer part of the portfolio.
 */
export const EFFECTIVE = 'coalesce(c.classe_effettiva, c.classe_calcolata)';

export const scored = (trx: Knex.Transaction, codAzienda: string) => trx('rischio_correnti as c')
  .join('anagrafe as a', (j) => j.on('a.cod_azienda', 'c.cod_azienda').andOn('a.cod_anagrafe', 'c.cod_anagrafe'))
  .where('c.cod_azienda', codAzienda).whereNot('a.stato', 'eliminato');

export type ClassCounts = Record<Classe, number>;
const zeroClasses = (): ClassCounts => ({ basso: 0, medio: 0, medio_alto: 0, alto: 0 });

export interface Portfolio {
  totale_clienti: number;
  valutati: number;
  mai_valutati: number;
  punteggio_medio: number | null;
  per_classe: ClassCounts;
  per_segmento: { segmento: string; totale: number; per_classe: ClassCounts }[];
  per_paese: { paese: string | null; totale: number; per_classe: ClassCounts }[];
}

/** Groups rows of (key, classe, n) into one entry per key with its counts by class, largest first. */
function byKey(rows: { k: string | null; classe: Classe; n: string | number }[]) {
  const out = new Map<string | null, { totale: number; per_classe: ClassCounts }>();
  for (const r of rows) {
    const e = out.get(r.k) ?? { totale: 0, per_classe: zeroClasses() };
    e.per_classe[r.classe] += Number(r.n);
    e.totale += Number(r.n);
    out.set(r.k, e);
  }
  return [...out.entries()].sort((a, b) => b[1].totale - a[1].totale || String(a[0]).localeCompare(String(b[0])));
}

export async function portfolio(trx: Knex.Transaction, codAzienda: string): Promise<Portfolio> {
  // One after the other: the queries share the transaction's connection.
  const groups = await scored(trx, codAzienda).select(trx.raw(`${EFFECTIVE} as classe`), 'a.tipo_soggetto as segmento', trx.raw('upper(a.paese_residenza) as paese'))
    .count({ n: '*' }).groupByRaw('1, 2, 3') as { classe: Classe; segmento: string; paese: string | null; n: string }[];
  const avg = await scored(trx, codAzienda).avg({ m: 'c.punteggio' }).first() as { m: string | null } | undefined;
  const customers = await trx('anagrafe').where('cod_azienda', codAzienda).whereNot('stato', 'eliminato').count({ n: '*' }).first() as { n: string } | undefined;
  const perClasse = zeroClasses();
  for (const g of groups) perClasse[g.classe] += Number(g.n);
  const valutati = Object.values(perClasse).reduce((s, n) => s + n, 0);
  const totale = Number(customers?.n ?? 0);
  return {
    totale_clienti: totale,
    valutati,
    mai_valutati: Math.max(0, totale - valutati),
    punteggio_medio: avg?.m == null ? null : Math.round(Number(avg.m) * 10) / 10,
    per_classe: perClasse,
    per_segmento: byKey(groups.map((g) => ({ k: g.segmento, classe: g.classe, n: g.n }))).map(([segmento, e]) => ({ segmento: segmento ?? '', ...e })),
    per_paese: byKey(groups.map((g) => ({ k: g.paese, classe: g.classe, n: g.n }))).map(([paese, e]) => ({ paese, ...e })),
  };
}

/** Score bands of the histogram: below 0, ten points each from 0 to 99, then 100 and over. */
export const SCORE_BANDS = [
  { da: null, a: -1, label: 'meno di 0' },
  ...Array.from({ length: 10 }, (_, i) => ({ da: i * 10, a: i * 10 + 9, label: `${i * 10}–${i * 10 + 9}` })),
  { da: 100, a: null, label: '100 e oltre' },
] as const satisfies readonly { da: number | null; a: number | null; label: string }[];

export interface Distribution {
  fasce: { da: number | null; a: number | null; label: string; clienti: number }[];
  /** Month ends (YYYY-MM, oldest first) and, for each, the customers in each class at that month's end. */
  mesi: { mese: string; per_classe: ClassCounts; totale: number }[];
}

export const DISTRIBUTION_MONTHS = 24;

export async function distribution(trx: Knex.Transaction, codAzienda: string): Promise<Distribution> {
  const bandOf = 'case when c.punteggio < 0 then 0 when c.punteggio >= 100 then 11 else 1 + c.punteggio / 10 end';
  const bands = await scored(trx, codAzienda).select(trx.raw(`${bandOf} as b`)).count({ n: '*' }).groupByRaw('1') as { b: number; n: string }[];
  const months = await classesByMonth(trx, codAzienda, DISTRIBUTION_MONTHS);
  return {
    fasce: SCORE_BANDS.map((f, i) => ({ ...f, clienti: Number(bands.find((b) => Number(b.b) === i)?.n ?? 0) })),
    mesi: months,
  };
}

/**
 * The class of each customer at each month's end (Europe/Rome) over the last `count` months, this
 * one included (its end is "now"): from the history, the last calculation of each customer in each
 * month, carried forward until the customer's next calculation. One pass over the tenant's history
 * (its index rischio_storico_anagrafe gives the rows in customer and time order).
 */
export async function classesByMonth(trx: Knex.Transaction, codAzienda: string, count: number): Promise<Distribution['mesi']> {
  const rows = await trx.raw(`
    with mesi as (
      select m::date as mese from generate_series(date_trunc('month', now() at time zone 'Europe/Rome') - make_interval(months => :back),
        date_trunc('month', now() at time zone 'Europe/Rome'), interval '1 month') m
    ), ultimi as (
      select distinct on (s.cod_anagrafe, 2) s.cod_anagrafe, date_trunc('month', s.calcolato_at at time zone 'Europe/Rome')::date as mese, s.classe
      from rischio_storico s where s.cod_azienda = :tenant
        and not exists (select 1 from anagrafe a where a.cod_azienda = s.cod_azienda and a.cod_anagrafe = s.cod_anagrafe and a.stato = 'eliminato')
      order by s.cod_anagrafe, 2, s.calcolato_at desc, s.id desc
    ), periodi as (
      select classe, mese as dal, lead(mese) over (partition by cod_anagrafe order by mese) as al from ultimi
    )
    select to_char(m.mese, 'YYYY-MM') as mese, p.classe, count(*)::int as n
    from periodi p join mesi m on m.mese >= p.dal and (p.al is null or m.mese < p.al)
    group by 1, 2`, { tenant: codAzienda, back: count - 1 });
  const months = (await trx.raw(`select to_char(m, 'YYYY-MM') as mese from generate_series(date_trunc('month', now() at time zone 'Europe/Rome') - make_interval(months => ?),
    date_trunc('month', now() at time zone 'Europe/Rome'), interval '1 month') m order by 1`, [count - 1])).rows as { mese: string }[];
  const found = rows.rows as { mese: string; classe: Classe; n: number }[];
  return months.map(({ mese }) => {
    const perClasse = zeroClasses();
    for (const r of found) if (r.mese === mese) perClasse[r.classe] += r.n;
    return { mese, per_classe: perClasse, totale: CLASSI.reduce((s, c) => s + perClasse[c], 0) };
  });
}

export interface Heatmap {
  classi: readonly Classe[];
  segmenti: { segmento: string; per_classe: ClassCounts; totale: number }[];
  paesi: { paese: string | null; per_classe: ClassCounts; totale: number }[];
}

/** Segment × class and country × class: the portfolio's groups without the summary figures. */
export async function heatmap(trx: Knex.Transaction, codAzienda: string): Promise<Heatmap> {
  const p = await portfolio(trx, codAzienda);
  return { classi: CLASSI, segmenti: p.per_segmento, paesi: p.per_paese };
}

export interface Matrix {
  /** celle[p-1][i-1]: customers with probability p and impact i. */
  celle: number[][];
  totale: number;
}

/** The 4×4 probability × impact counts: one grouped read of the tenant's rows (index rischio_correnti_matrice). */
export async function matrix(trx: Knex.Transaction, codAzienda: string): Promise<Matrix> {
  const rows = await scored(trx, codAzienda).select('c.probabilita', 'c.impatto').count({ n: '*' })
    .groupBy('c.probabilita', 'c.impatto') as { probabilita: number; impatto: number; n: string }[];
  const celle = [0, 1, 2, 3].map(() => [0, 0, 0, 0]);
  for (const r of rows) celle[r.probabilita - 1]![r.impatto - 1] = Number(r.n);
  return { celle, totale: rows.reduce((s, r) => s + Number(r.n), 0) };
}
