import type { Knex } from 'knex';
import { listaLabel } from '../screening';

/**
 * What the CDD pages show around a task, read in the tenant's transaction (row-level security
 * applies; the tenant predicate is explicit where an index starts with it): the customer's name,
 * the customer picker's search, the screening hits of the customer, its periodic reviews.
 */

export interface CustomerSummary {
  cod_anagrafe: string;
  nome: string;
  tipo_soggetto: string;
  classe_rischio: string | null;
  codice_fiscale: string | null;
  partita_iva: string | null;
}

interface AnagrafeRow {
  cod_anagrafe: string; denominazione: string | null; nome: string | null; cognome: string | null;
  tipo_soggetto: string; classe_rischio: string | null; codice_fiscale: string | null; partita_iva: string | null;
}

const COLUMNS = ['cod_anagrafe', 'denominazione', 'nome', 'cognome', 'tipo_soggetto', 'classe_rischio', 'codice_fiscale', 'partita_iva'];

/** A company by its name, a person by "Nome Cognome"; the code when the record has neither. */
const displayName = (r: AnagrafeRow) => r.denominazione?.trim() || [r.nome, r.cognome].filter(Boolean).join(' ').trim() || r.cod_anagrafe;

const summary = (r: AnagrafeRow): CustomerSummary => ({
  cod_anagrafe: r.cod_anagrafe, nome: displayName(r), tipo_soggetto: r.tipo_soggetto, classe_rischio: r.classe_rischio,
  codice_fiscale: r.codice_fiscale, partita_iva: r.partita_iva,
});

/** The customer of a code, or undefined (another tenant's code is not found: RLS). */
export async function customerSummary(trx: Knex.Transaction, codAzienda: string, codAnagrafe: string): Promise<CustomerSummary | undefined> {
  const row = await trx('anagrafe').where({ cod_azienda: codAzienda, cod_anagrafe: codAnagrafe }).first<AnagrafeRow | undefined>(COLUMNS);
  return row ? summary(row) : undefined;
}

/** Display names of the customers a page of rows names, in one query (outside the list's own query, so its plan is unchanged). */
export async function customerNames(trx: Knex.Transaction, codAzienda: string, codes: (string | null | undefined)[]): Promise<Record<string, string>> {
  const wanted = [...new Set(codes.filter((c): c is string => !!c))];
  if (!wanted.length) return {};
  const rows = await trx('anagrafe').where('cod_azienda', codAzienda).whereIn('cod_anagrafe', wanted).select<AnagrafeRow[]>(COLUMNS);
  return Object.fromEntries(rows.map((r) => [r.cod_anagrafe, displayName(r)]));
}

export const SEARCH_LIMIT = 20;

/**
 * The customer picker: an exact code, tax code or VAT number first (what a person types from a
 * document), else a part of the name. At most SEARCH_LIMIT rows, and whether there were more.
 */
export async function searchCustomers(trx: Knex.Transaction, codAzienda: string, q: string): Promise<{ results: CustomerSummary[]; more: boolean }> {
  const term = q.trim();
  const compact = term.replace(/\s+/g, '').toUpperCase();
  const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await trx('anagrafe').where('cod_azienda', codAzienda)
    .where((w) => w.where('cod_anagrafe', compact).orWhere('codice_fiscale', compact).orWhere('partita_iva', compact)
      .orWhereILike('denominazione', like).orWhereRaw("(coalesce(nome, '') || ' ' || coalesce(cognome, '')) ilike ?", [like])
      .orWhereRaw("(coalesce(cognome, '') || ' ' || coalesce(nome, '')) ilike ?", [like]))
    .orderByRaw('(cod_anagrafe = ? or codice_fiscale = ? or partita_iva = ?) desc, cod_anagrafe', [compact, compact, compact])
    .limit(SEARCH_LIMIT + 1).select<AnagrafeRow[]>(COLUMNS);
  return { results: rows.slice(0, SEARCH_LIMIT).map(summary), more: rows.length > SEARCH_LIMIT };
}

export interface ScreeningHit { id: string; lista: string; nome: string; score: number; stato: string; created_at: Date }

/** The customer's screening matches (not deleted), newest first: what the reviewer weighs before completing. */
export async function screeningHits(trx: Knex.Transaction, codAzienda: string, codAnagrafe: string, limit = 50): Promise<ScreeningHit[]> {
  const rows = await trx('screening_matches as m').join('screening_subjects as s', 's.id', 'm.subject_id')
    .where({ 'm.cod_azienda': codAzienda, 's.cod_azienda': codAzienda, 's.cod_anagrafe': codAnagrafe }).whereNull('m.deleted_at')
    .orderBy('m.created_at', 'desc').limit(limit)
    .select<{ id: string; list_name: string; nome: string; score: number; stato: string; created_at: Date }[]>('m.id', 'm.list_name', 's.nome', 'm.score', 'm.stato', 'm.created_at');
  return rows.map((r) => ({ id: r.id, lista: listaLabel(r.list_name), nome: r.nome, score: Number(r.score), stato: r.stato, created_at: r.created_at }));
}

export interface CustomerReview { id: string; due_at: Date; stato: string; classe_rischio: string | null }

/** The customer's periodic reviews, the next due first. */
export async function customerReviews(trx: Knex.Transaction, codAzienda: string, codAnagrafe: string): Promise<CustomerReview[]> {
  return trx('cdd_reviews').where({ cod_azienda: codAzienda, cod_anagrafe: codAnagrafe })
    .orderBy('due_at', 'desc').limit(50).select('id', 'due_at', 'stato', 'classe_rischio');
}
