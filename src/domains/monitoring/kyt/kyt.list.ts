import { defineList } from '../../../kit/list';

/** A day (YYYY-MM-DD) at midnight in Rome: a constant the index range reads. */
const romeDay = (offset: 0 | 1) => `((?::date + ${offset})::timestamp at time zone 'Europe/Rome')`;

/** KYT events (GET /api/kyt/events), newest first; by customer and by chain on their own indexes. */
export const kytEventsList = defineList<{ cod_anagrafe: string; chain: string; dal: string; al: string }>({
  name: 'monitoring.kyt-events',
  table: 'kyt_eventi',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: (db) => [
    'id', 'cod_evento', 'cod_azienda', 'chain', 'hash', 'direzione', 'indirizzo_da', 'indirizzo_a', 'asset', db.raw('importo::text as importo'),
    db.raw('importo_eur::float8 as importo_eur'), 'data_ora', db.raw('giorno::text as giorno'), 'cod_anagrafe', 'risolto_da', 'cod_decisione', 'created_by', 'created_at',
  ],
  sorts: { data_ora: [{ column: 'data_ora', type: 'timestamp' }, { column: 'id', type: 'uuid' }] },
  defaultSort: '-data_ora',
  filters: {
    cod_anagrafe: { apply: (qb, v) => qb.where('cod_anagrafe', v), sample: 'KYTANA-00007' },
    chain: { apply: (qb, v) => qb.where('chain', v), sample: 'ethereum' },
    dal: { apply: (qb, v) => qb.whereRaw(`data_ora >= ${romeDay(0)}`, [v]), sample: '2026-03-01' },
    al: { apply: (qb, v) => qb.whereRaw(`data_ora < ${romeDay(1)}`, [v]), sample: '2025-01-31' },
  },
  limit: { default: 25, max: 200 },
});
