import { defineList } from '../../kit/list';
import type { MatchStatus } from '../../../workflows/screening/screening.machine';

/**
 * Matches to review, newest first; within one screening (same created_at) the strongest first.
 * Deleted matches are never listed (the partial indexes say `where deleted_at is null` too).
 */
export const matchesList = defineList<{ stato: MatchStatus; min_score: number; list: string; assegnatario: string; da_confermare: boolean }>({
  name: 'screening.matches',
  table: 'screening_matches',
  from: (db) => db('screening_matches as m').join('screening_subjects as s', 's.id', 'm.subject_id').whereNull('m.deleted_at'),
  tenantColumn: 'm.cod_azienda',
  scopes: ['tenant'],
  columns: () => ['m.*', 's.nome as subject_nome', 's.tipo as subject_tipo', 's.cod_anagrafe'],
  sorts: {
    created_at: [{ column: 'm.created_at', type: 'timestamp' }, { column: 'm.score', type: 'number' }, { column: 'm.id', type: 'uuid' }],
  },
  defaultSort: '-created_at',
  filters: {
    stato: { apply: (qb, v) => qb.where('m.stato', v), sample: 'open' },
    min_score: { apply: (qb, v) => qb.where('m.score', '>=', v), sample: 0.95 },
    list: { apply: (qb, v) => qb.where('m.list_name', v), sample: 'EU' },
    // A user id: the pages and the API turn `me` into the caller's before the list is read.
    assegnatario: { apply: (qb, v) => qb.where('m.assegnatario', v), sample: '00000000-0000-4000-8000-000000000001' },
    // A resolution requested under four-eyes, waiting for someone else's confirmation (or, false, not yet requested).
    da_confermare: {
      apply: (qb, v) => (v ? qb.where('m.stato', 'assigned').whereNotNull('m.resolution_requested_by') : qb.whereNull('m.resolution_requested_by')),
      sample: true,
    },
  },
  search: { apply: (qb, like) => qb.whereILike('s.nome', like), sample: 'mario' },
  limit: { default: 25, max: 200 },
});

/** List imports: platform data (no tenant column), read by the importers platform-wide and by tenants' staff. */
export const importRunsList = defineList<Record<string, never>>({
  name: 'screening.import_runs',
  table: 'screening_import_runs',
  tenantColumn: null,
  scopes: ['tenant', 'platform'],
  columns: () => ['*'],
  sorts: { started_at: [{ column: 'started_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }] },
  defaultSort: '-started_at',
  filters: {},
  limit: { default: 20, max: 100 },
});
