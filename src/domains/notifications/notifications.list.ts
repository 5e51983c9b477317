import { defineList } from '../../kit/list';

export const NOTIFICATION_COLUMNS = ['id', 'tipo', 'titolo', 'messaggio', 'link', 'entity_type', 'entity_id', 'read_at', 'created_at'] as const;

/** A user's notifications, newest first: always one tenant and one user (cod_utente is never left out). */
export const notificationsList = defineList<{ cod_utente: string; unread: boolean }>({
  name: 'notifications',
  table: 'notifications',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: () => [...NOTIFICATION_COLUMNS],
  sorts: { created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }] },
  defaultSort: '-created_at',
  filters: {
    cod_utente: { apply: (qb, v) => qb.where('cod_utente', v), sample: '00000000-0000-4000-8000-000000000001', always: true },
    unread: { apply: (qb, v) => (v ? qb.whereNull('read_at') : qb.whereNotNull('read_at')), sample: true },
  },
  limit: { default: 20, max: 100 },
});
