import type { Knex } from 'knex';
import { defineList } from '../../kit/list';
import type { Segno } from './movements.labels';

/** The columns a movement is read with: dates as PostgreSQL prints them (a Date would move them across time zones). */
export const movementColumns = (db: Knex) => [
  'id', 'cod_azienda', 'cod_rapporto', 'cod_anagrafe',
  db.raw('data_operazione::text as data_operazione'), db.raw('ora_operazione::text as ora_operazione'), db.raw('data_valuta::text as data_valuta'),
  'importo', db.raw('valuta::text as valuta'), 'importo_eur', 'segno', 'causale', 'canale', 'contanti',
  'controparte_nome', 'controparte_conto', 'controparte_paese', 'chiave_esterna', 'cod_anagrafe_esecutore', 'import_id', 'created_by', 'created_at',
];

/**
 * The movements list: tens of millions of rows, monthly partitions. Every sort and the customer,
 * relationship and cash filters have an index (migrations/20261204000300_create_movimenti.ts); a
 * date range (dal/al) prunes the partitions read. No free-text search: on this table it would
 * read the tenant's rows (docs/lists.md), so a reader narrows by customer, relationship or dates.
 * The amount filters compare the euro equivalent, so movements in other currencies compare too.
 */
export const movementsList = defineList<{
  cod_anagrafe: string; cod_rapporto: string; cod_anagrafe_esecutore: string; dal: string; al: string;
  importo_min: number; importo_max: number; contanti: boolean; segno: Segno;
}>({
  name: 'movements',
  table: 'movimenti',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: movementColumns,
  sorts: {
    // The date as text in the cursor: a tampered one is refused by PostgreSQL's date input (a 422).
    // Qualified: the bare name would order by the selected text of the same name, which no index serves.
    data_operazione: [{ column: 'movimenti.data_operazione', type: 'text' }, { column: 'id', type: 'uuid' }],
    importo: [{ column: 'importo_eur', type: 'number' }, { column: 'id', type: 'uuid' }],
  },
  defaultSort: '-data_operazione',
  filters: {
    cod_anagrafe: { apply: (qb, v) => qb.where('cod_anagrafe', v), sample: 'MOVANA-00007' },
    cod_rapporto: { apply: (qb, v) => qb.where('cod_rapporto', v), sample: 'MOVRAP-00007' },
    // The movements a subject executed (the partial index movimenti_tenant_esecutore_data: an equality implies not null).
    cod_anagrafe_esecutore: { apply: (qb, v) => qb.where('cod_anagrafe_esecutore', v), sample: 'MOVANA-00011' },
    dal: { apply: (qb, v) => qb.where('data_operazione', '>=', v), sample: '2026-06-01' },
    al: { apply: (qb, v) => qb.where('data_operazione', '<=', v), sample: '2025-06-30' },
    importo_min: { apply: (qb, v) => qb.where('importo_eur', '>=', v), sample: 9_000 },
    importo_max: { apply: (qb, v) => qb.where('importo_eur', '<=', v), sample: 50 },
    contanti: { apply: (qb, v) => (v ? qb.where('contanti', true) : qb.where('contanti', false)), sample: true },
    segno: { apply: (qb, v) => qb.where('segno', v), sample: 'uscita' },
  },
  limit: { default: 25, max: 200 },
});
