import type { Knex } from 'knex';
import { z } from 'zod';
import { USER_COLUMNS } from './admin.commands';
import { listParamsShape, PLATFORM_SCOPE, runList, type ListScope } from '../../kit/list';
import { aziendeList, utentiList } from './admin.lists';

export const aziendeListQuery = z.object({
  q: z.string().trim().max(100).optional(),
  attiva: z.enum(['true', 'false']).optional(),
  ...listParamsShape(aziendeList),
});
export const utentiListQuery = z.object({
  q: z.string().trim().max(100).optional(),
  cod_azienda: z.string().optional(),
  ruolo: z.string().optional(),
  attivo: z.enum(['true', 'false']).optional(),
  ...listParamsShape(utentiList),
});

/** Tenants, platform-wide: only superadmins list them. */
export const listAziende = (trx: Knex.Transaction, q: z.infer<typeof aziendeListQuery>) => runList<{ cod_azienda: string; ragione_sociale: string } & Record<string, unknown>>(trx, aziendeList, PLATFORM_SCOPE, q);

export const getAzienda = (trx: Knex.Transaction, cod: string) => trx('aziende').where({ cod_azienda: cod }).first();

/** Users in the reader's scope (adminListScope: a superadmin's platform, an admin's tenant). */
export const listUtenti = (trx: Knex.Transaction, scope: ListScope, q: z.infer<typeof utentiListQuery>) => runList(trx, utentiList, scope, q);

export const getUtente = (trx: Knex.Transaction, cod: string) =>
  z.uuid().safeParse(cod).success ? trx('utenti').where({ cod_utente: cod }).first([...USER_COLUMNS]) : Promise.resolve(undefined);
