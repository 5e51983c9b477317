import type { Knex } from 'knex';
import { highRiskLists } from '../../cdd';
import type { FigureLinea } from './self.matrix';

/** A business line as the figures need it: which customers it covers. */
export interface LineaPerimetro { id: string; tipi_rapporto: string[]; tipi_soggetto: string[] }

const HIGH = ['alto', 'medio_alto'];

/** The countries a customer's residence or nationality makes "linked to a high-risk country" (EU list, FATF black and grey lists). */
export function highRiskCountries(): string[] {
  const l = highRiskLists();
  return [...new Set([...l.eu, ...l.fatfBlack, ...l.fatfGrey])].sort();
}

/** The twelve months the movement figures read: up to the end of the exercise's year, or today if earlier. */
export function figuresWindow(anno: number, oggi: string): { da: string; a: string } {
  const fine = `${anno}-12-31` < oggi ? `${anno}-12-31` : oggi;
  const d = new Date(`${fine}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() - 1);
  d.setUTCDate(d.getUTCDate() + 1);
  return { da: d.toISOString().slice(0, 10), a: fine };
}

/** The customers of a line: active records holding an active relationship of the line's kinds (and subject types, when the line names some). */
function lineCustomers(trx: Knex.Transaction, codAzienda: string, l: LineaPerimetro) {
  return trx('anagrafe as a')
    .where('a.cod_azienda', codAzienda).where('a.stato', 'attivo')
    .modify((q) => { if (l.tipi_soggetto.length) q.whereIn('a.tipo_soggetto', l.tipi_soggetto); })
    .whereExists((e) => e.select(trx.raw('1')).from('rapporti as r')
      .whereRaw('r.cod_azienda = a.cod_azienda and r.cod_anagrafe = a.cod_anagrafe').where('r.stato', 'attivo').whereIn('r.tipo', l.tipi_rapporto));
}

/**
 * The portfolio's figures per line: customers, those in class alto or medio-alto (the current
 * score's effective class, else its calculated class, else the class on the record), PEPs,
 * customers resident in or nationals of a high-risk country, and the movements of the line's
 * relationships in the window (count, EUR volume, cash volume). Two queries per line.
 */
export async function lineFigures(trx: Knex.Transaction, codAzienda: string, linee: readonly LineaPerimetro[], window: { da: string; a: string }): Promise<Map<string, FigureLinea>> {
  const paesi = highRiskCountries();
  const out = new Map<string, FigureLinea>();
  for (const l of linee) {
    const c = await lineCustomers(trx, codAzienda, l)
      .leftJoin('rischio_correnti as rc', (j) => j.on('rc.cod_azienda', 'a.cod_azienda').andOn('rc.cod_anagrafe', 'a.cod_anagrafe'))
      .first(
        trx.raw('count(*)::int as clienti'),
        trx.raw('(count(*) filter (where coalesce(rc.classe_effettiva, rc.classe_calcolata, a.classe_rischio) = any(?)))::int as alto', [HIGH]),
        trx.raw('(count(*) filter (where a.pep))::int as pep'),
        trx.raw('(count(*) filter (where a.paese_residenza = any(?) or a.nazionalita = any(?)))::int as paesi', [paesi, paesi]),
      );
    const m = await trx('movimenti as m')
      .join('rapporti as r', (j) => j.on('r.cod_azienda', 'm.cod_azienda').andOn('r.cod_rapporto', 'm.cod_rapporto'))
      .modify((q) => { if (l.tipi_soggetto.length) q.join('anagrafe as a', (j) => j.on('a.cod_azienda', 'm.cod_azienda').andOn('a.cod_anagrafe', 'm.cod_anagrafe')).whereIn('a.tipo_soggetto', l.tipi_soggetto); })
      .where('m.cod_azienda', codAzienda).whereBetween('m.data_operazione', [window.da, window.a]).whereIn('r.tipo', l.tipi_rapporto)
      .first(
        trx.raw('count(*)::int as movimenti'),
        trx.raw('coalesce(sum(m.importo_eur), 0)::float8 as volume'),
        trx.raw('coalesce(sum(m.importo_eur) filter (where m.contanti), 0)::float8 as contanti'),
      );
    out.set(l.id, {
      clienti: c?.clienti ?? 0, clienti_alto_rischio: c?.alto ?? 0, pep: c?.pep ?? 0, paesi_alto_rischio: c?.paesi ?? 0,
      movimenti: m?.movimenti ?? 0, volume_eur: Number(m?.volume ?? 0), contanti_eur: Number(m?.contanti ?? 0),
    });
  }
  return out;
}

const pct = (n: number, d: number) => (d > 0 ? Math.round((n / d) * 10_000) / 100 : 0);

/**
 * The actual value of a RAF metric or a KRI from live data, in its unit (percent points or a
 * count); null for a manual metric. One aggregate query each, on the tenant's indexes.
 */
export async function measure(trx: Knex.Transaction, codAzienda: string, calcolo: string, oggi: string): Promise<number | null> {
  const customers = () => trx('anagrafe as a').where('a.cod_azienda', codAzienda).where('a.stato', 'attivo');
  switch (calcolo) {
    case 'quota_clienti_alto_rischio': {
      const r = await customers().leftJoin('rischio_correnti as rc', (j) => j.on('rc.cod_azienda', 'a.cod_azienda').andOn('rc.cod_anagrafe', 'a.cod_anagrafe'))
        .first(trx.raw('count(*)::int as n'), trx.raw('(count(*) filter (where coalesce(rc.classe_effettiva, rc.classe_calcolata, a.classe_rischio) = any(?)))::int as k', [HIGH]));
      return pct(r.k, r.n);
    }
    case 'quota_clienti_pep': {
      const r = await customers().first(trx.raw('count(*)::int as n'), trx.raw('(count(*) filter (where a.pep))::int as k'));
      return pct(r.k, r.n);
    }
    case 'quota_clienti_paesi_alto_rischio': {
      const paesi = highRiskCountries();
      const r = await customers().first(trx.raw('count(*)::int as n'), trx.raw('(count(*) filter (where a.paese_residenza = any(?) or a.nazionalita = any(?)))::int as k', [paesi, paesi]));
      return pct(r.k, r.n);
    }
    case 'revisioni_cdd_scadute': {
      const r = await trx('cdd_reviews').where('cod_azienda', codAzienda)
        .where((w) => w.where('stato', 'scaduta').orWhere((o) => o.where('stato', 'programmata').whereRaw('due_at < now()')))
        .first(trx.raw('count(*)::int as n'));
      return r.n;
    }
    case 'pratiche_cdd_scadute': {
      const r = await trx('cdd_pratiche').where('cod_azienda', codAzienda).whereIn('stato', ['open', 'in_progress', 'pending_review'])
        .whereRaw('due_at < now()').first(trx.raw('count(*)::int as n'));
      return r.n;
    }
    case 'quota_contanti': {
      const w = figuresWindow(Number(oggi.slice(0, 4)), oggi);
      const r = await trx('movimenti').where('cod_azienda', codAzienda).whereBetween('data_operazione', [w.da, w.a])
        .first(trx.raw('coalesce(sum(importo_eur), 0)::float8 as v'), trx.raw('coalesce(sum(importo_eur) filter (where contanti), 0)::float8 as c'));
      return pct(Number(r.c), Number(r.v));
    }
    default: return null;
  }
}
