import type { Knex } from 'knex';
import type { DossierRecord } from '../../../workflows/dossier/dossier.contract';
import { isUuid } from '../../kit/ids';
import { runList, tenantScope } from '../../kit/list';
import { DOSSIER_COLUMNS } from './dossier.columns';
import { dossiersList } from './dossier.list';
import type { ListDossiersQuery } from './dossier.schemas';

/** Reads run inside a tenant transaction: row-level security hides other tenants' dossiers. */
export async function getDossier(trx: Knex.Transaction, id: string): Promise<DossierRecord | undefined> {
  if (!isUuid(id)) return undefined;
  return trx('dossiers').where({ id }).first(DOSSIER_COLUMNS) as Promise<DossierRecord | undefined>;
}

export async function dossierEvents(trx: Knex.Transaction, id: string) {
  return trx('dossier_events').where({ dossier_id: id }).orderBy([{ column: 'created_at' }, { column: 'id' }]).select('id', 'tipo', 'testo', 'actor', 'created_at') as
    Promise<{ id: string; tipo: string; testo: string; actor: string; created_at: Date }[]>;
}

export function listDossiers(trx: Knex.Transaction, codAzienda: string, q: ListDossiersQuery) {
  return runList<DossierRecord>(trx, dossiersList, tenantScope(codAzienda), q);
}
