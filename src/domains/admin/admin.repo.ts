import type { Knex } from 'knex';
import { z } from 'zod';
import { USER_COLUMNS } from './admin.commands';

export const listQuery = z.object({
  q: z.string().trim().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(25),
  offset: z.coerce.number().int().min(0).default(0),
  sort: z.string().optional(),
});

export const aziendeListQuery = listQuery.extend({
  attiva: z.enum(['true', 'false']).optional(),
  sort: z.enum(['cod_azienda', '-cod_azienda', 'ragione_sociale', '-ragione_sociale', 'created_at', '-created_at']).default('ragione_sociale'),
});
export const utentiListQuery = listQuery.extend({
  cod_azienda: z.string().optional(),
  ruolo: z.string().optional(),
  attivo: z.enum(['true', 'false']).optional(),
  sort: z.enum(['cognome', '-cognome', 'username', '-username', 'created_at', '-created_at', 'last_login_at', '-last_login_at']).default('cognome'),
});

const orderOf = (sort: string): [string, 'asc' | 'desc'] => (sort.startsWith('-') ? [sort.slice(1), 'desc'] : [sort, 'asc']);
const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listAziende(trx: Knex.Transaction, q: z.infer<typeof aziendeListQuery>) {
  const base = trx('aziende').modify((b) => {
    if (q.q) b.where((w) => w.whereILike('ragione_sociale', like(q.q!)).orWhereILike('cod_azienda', like(q.q!)).orWhereILike('partita_iva', like(q.q!)));
    if (q.attiva) b.where('attiva', q.attiva === 'true');
  });
  const [{ count }] = await base.clone().count<{ count: number }[]>({ count: '*' });
  const [col, dir] = orderOf(q.sort);
  const items = await base.clone().select('*').orderBy(col, dir).orderBy('cod_azienda').limit(q.limit).offset(q.offset);
  return { items, total: Number(count), limit: q.limit, offset: q.offset };
}

export const getAzienda = (trx: Knex.Transaction, cod: string) => trx('aziende').where({ cod_azienda: cod }).first();

export async function listUtenti(trx: Knex.Transaction, q: z.infer<typeof utentiListQuery>) {
  const base = trx('utenti').modify((b) => {
    if (q.q) b.where((w) => w.whereILike('username', like(q.q!)).orWhereILike('cognome', like(q.q!)).orWhereILike('nome', like(q.q!)).orWhereILike('email', like(q.q!)));
    if (q.cod_azienda) b.where('cod_azienda', q.cod_azienda);
    if (q.ruolo) b.whereRaw('? = any(ruoli)', [q.ruolo]);
    if (q.attivo) b.where('attivo', q.attivo === 'true');
  });
  const [{ count }] = await base.clone().count<{ count: number }[]>({ count: '*' });
  const [col, dir] = orderOf(q.sort);
  const items = await base.clone().select([...USER_COLUMNS]).orderByRaw(`${col} ${dir} nulls last`).orderBy('username').limit(q.limit).offset(q.offset);
  return { items, total: Number(count), limit: q.limit, offset: q.offset };
}

export const getUtente = (trx: Knex.Transaction, cod: string) =>
  z.uuid().safeParse(cod).success ? trx('utenti').where({ cod_utente: cod }).first([...USER_COLUMNS]) : Promise.resolve(undefined);
