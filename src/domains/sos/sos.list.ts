import { defineList } from '../../kit/list';
import type { SosStatus } from '../../../workflows/sos/sos.machine';

/** What waits for a delegate: reports to evaluate, in evaluation, to transmit (the queue). */
export const DELEGATE_QUEUE: readonly SosStatus[] = ['submitted', 'under_evaluation', 'to_transmit'];

/** A day (YYYY-MM-DD) at midnight in Rome: a constant the index range reads. */
const romeDay = (offset: 0 | 1) => `((?::date + ${offset})::timestamp at time zone 'Europe/Rome')`;

/**
 * The SOS list (/sos, /sos/queue, GET /api/sos/reports, the export). Which rows a caller gets is
 * the database's decision: the restrictive policy `sos_confidential` shows a report only to the SOS
 * delegate, the compliance officer and its reporter, so the list is read in a transaction that
 * carries the caller's principal (`sosDb`); the tenant predicate here only serves the indexes.
 */
export const sosList = defineList<{
  stato: SosStatus; tipo: 'originale' | 'sostitutiva'; cod_anagrafe: string; dal: string; al: string; reporter: string; in_coda: boolean;
}>({
  name: 'sos.reports',
  table: 'sos_reports',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: () => [
    'id', 'cod_segnalazione', 'tipo', 'sostituisce_id', 'stato', 'origine', 'origine_ref', 'cod_anagrafe', 'oggetto', 'descrizione',
    'reporter_username', 'valutatore', 'motivazione_archiviazione', 'protocollo_uif', 'trasmessa_at', 'valutazione_giorni',
    'valutazione_scadenza', 'escalated', 'created_at', 'updated_at', 'closed_at',
  ],
  sorts: {
    created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }],
    // The queue's order: the nearest evaluation term first; reports without a term (drafts) last.
    valutazione_scadenza: [{ column: 'valutazione_scadenza', type: 'timestamp', nullable: true }, { column: 'id', type: 'uuid' }],
  },
  defaultSort: '-created_at',
  filters: {
    stato: { apply: (qb, v) => qb.where('stato', v), sample: 'submitted' },
    tipo: { apply: (qb, v) => qb.where('tipo', v), sample: 'sostitutiva' },
    cod_anagrafe: { apply: (qb, v) => qb.where('cod_anagrafe', v), sample: 'SOSANA-00007' },
    dal: { apply: (qb, v) => qb.whereRaw(`created_at >= ${romeDay(0)}`, [v]), sample: '2026-06-01' },
    al: { apply: (qb, v) => qb.whereRaw(`created_at < ${romeDay(1)}`, [v]), sample: '2025-01-31' },
    // A user id: the pages and the API turn `me` into the caller's before the list is read.
    reporter: { apply: (qb, v) => qb.where('reporter', v), sample: '00000000-0000-4000-8000-000000000001' },
    in_coda: {
      apply: (qb, v) => (v ? qb.whereIn('stato', DELEGATE_QUEUE as SosStatus[]) : qb.whereNotIn('stato', DELEGATE_QUEUE as SosStatus[])),
      sample: true,
    },
  },
  search: {
    apply: (qb, like) => qb.where((w) => w.whereILike('cod_segnalazione', like).orWhereILike('oggetto', like).orWhereILike('cod_anagrafe', like)),
    sample: 'SOS-00',
  },
  limit: { default: 25, max: 200 },
});
