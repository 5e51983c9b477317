import { defineList } from '../../kit/list';
import { USER_COLUMNS } from './admin.commands';

/** The platform's tenants: a superadmin's list, read platform-wide (withPlatform), so no tenant predicate. */
export const aziendeList = defineList<{ attiva: 'true' | 'false' }>({
  name: 'admin.aziende',
  table: 'aziende',
  tenantColumn: null,
  scopes: ['platform'],
  columns: () => ['*'],
  sorts: {
    ragione_sociale: [{ column: 'ragione_sociale', type: 'text' }, { column: 'cod_azienda', type: 'text' }],
    cod_azienda: [{ column: 'cod_azienda', type: 'text' }],
    created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'cod_azienda', type: 'text' }],
  },
  defaultSort: 'ragione_sociale',
  filters: { attiva: { apply: (qb, v) => qb.where('attiva', v === 'true'), sample: 'false' } },
  search: {
    apply: (qb, like) => qb.where((w) => w.whereILike('ragione_sociale', like).orWhereILike('cod_azienda', like).orWhereILike('partita_iva', like)),
    sample: 'finanz',
  },
  limit: { default: 25, max: 200 },
});

/**
 * Users: a tenant admin's (the tenant's users) and a superadmin's (every user, platform-wide).
 * username is unique (utenti_username_lower), so it ends every sort.
 */
export const utentiList = defineList<{ cod_azienda: string; ruolo: string; attivo: 'true' | 'false' }>({
  name: 'admin.utenti',
  table: 'utenti',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant', 'platform'],
  columns: () => [...USER_COLUMNS],
  sorts: {
    cognome: [{ column: 'cognome', type: 'text' }, { column: 'username', type: 'text' }],
    username: [{ column: 'username', type: 'text' }],
    created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'username', type: 'text' }],
    last_login_at: [{ column: 'last_login_at', type: 'timestamp', nullable: true, nulls: 'last' }, { column: 'username', type: 'text' }],
  },
  defaultSort: 'cognome',
  filters: {
    cod_azienda: { apply: (qb, v) => qb.where('cod_azienda', v), sample: 'SEED1' },
    ruolo: { apply: (qb, v) => qb.whereRaw('? = any(ruoli)', [v]), sample: 'analyst' },
    attivo: { apply: (qb, v) => qb.where('attivo', v === 'true'), sample: 'false' },
  },
  search: {
    apply: (qb, like) => qb.where((w) => w.whereILike('username', like).orWhereILike('cognome', like).orWhereILike('nome', like).orWhereILike('email', like)),
    sample: 'rossi',
  },
  limit: { default: 25, max: 200 },
});
