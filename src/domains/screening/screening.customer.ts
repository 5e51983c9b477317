import type { Knex } from 'knex';
import { listaLabel, MATCH_STATO_LABELS, MATCH_STATO_TONES } from './screening.labels';
import type { MatchStatus } from '../../../workflows/screening/screening.machine';

/** A screening hit of a customer as another area shows it (the customer file): words already in Italian. */
export interface CustomerHit {
  id: string;
  lista: string;
  nomeTrovato: string | null;
  score: number;
  stato: MatchStatus;
  statoLabel: string;
  statoTone: string;
  created_at: Date;
  resolved_at: Date | null;
}

/** When the subject stored under a customer's code was last screened, and its hits (deleted ones left out). */
export interface CustomerScreening { lastScreenedAt: Date | null; hits: CustomerHit[] }

/**
 * The screening of one customer: its subject (one per cod_anagrafe, a unique index) and the
 * subject's matches, newest first, at most `limit`. Inside withTenant (row-level security).
 */
export async function screeningForCustomer(trx: Knex.Transaction, codAzienda: string, codAnagrafe: string, limit = 50): Promise<CustomerScreening | null> {
  const subject = await trx('screening_subjects').where({ cod_azienda: codAzienda, cod_anagrafe: codAnagrafe }).first('id', 'last_screened_at') as
    { id: string; last_screened_at: Date | null } | undefined;
  if (!subject) return null;
  const rows = await trx('screening_matches').where({ cod_azienda: codAzienda, subject_id: subject.id }).whereNull('deleted_at')
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit)
    .select('id', 'list_name', 'score', 'stato', 'breakdown', 'created_at', 'resolved_at') as
    { id: string; list_name: string; score: number; stato: MatchStatus; breakdown: { matched_name?: string | null } | null; created_at: Date; resolved_at: Date | null }[];
  return {
    lastScreenedAt: subject.last_screened_at,
    hits: rows.map((r) => ({
      id: r.id, lista: listaLabel(r.list_name), nomeTrovato: r.breakdown?.matched_name ?? null, score: Number(r.score), stato: r.stato,
      statoLabel: MATCH_STATO_LABELS[r.stato] ?? r.stato, statoTone: MATCH_STATO_TONES[r.stato] ?? 'secondary', created_at: r.created_at, resolved_at: r.resolved_at,
    })),
  };
}
