import type { Knex } from 'knex';
import { isUuid } from './ids';

/** The roles that work records (can be assigned one); mirrors STAFF_WRITE. */
const WORKING_ROLES = "array['co','analyst','sos','admin']::text[]";

/** Display names ("Nome Cognome (username)") of the users a record refers to by id. */
export async function userNames(trx: Knex.Transaction, ids: (string | null | undefined)[]): Promise<Record<string, string>> {
  const wanted = [...new Set(ids.filter((v): v is string => !!v && isUuid(v)))];
  if (!wanted.length) return {};
  const rows = await trx('utenti').whereIn('cod_utente', wanted).select('cod_utente', 'username', 'nome', 'cognome');
  return Object.fromEntries(rows.map((r: { cod_utente: string; username: string; nome: string; cognome: string }) =>
    [r.cod_utente, `${r.nome} ${r.cognome} (${r.username})`]));
}

/** Display names of the users a record refers to by username (processes that record the actor as signed in). */
export async function userNamesByUsername(trx: Knex.Transaction, usernames: (string | null | undefined)[]): Promise<Record<string, string>> {
  const wanted = [...new Set(usernames.filter((v): v is string => !!v))];
  if (!wanted.length) return {};
  const rows = await trx('utenti').whereIn('username', wanted).select('username', 'nome', 'cognome');
  return Object.fromEntries(rows.map((r: { username: string; nome: string; cognome: string }) => [r.username, `${r.nome} ${r.cognome} (${r.username})`]));
}

/** Active users of the tenant who can be assigned a record (case, match, alert...). */
export async function assignableUsers(trx: Knex.Transaction, codAzienda: string) {
  return trx('utenti').where({ cod_azienda: codAzienda, attivo: true })
    .whereRaw(`ruoli && ${WORKING_ROLES}`)
    .orderBy(['cognome', 'nome']).select('cod_utente', 'username', 'nome', 'cognome');
}

/** "Nome Cognome" of the users an audit trail names by username (timelines); unknown ones are left out. */
export async function fullNamesByUsername(trx: Knex.Transaction, usernames: (string | null | undefined)[]): Promise<Record<string, string>> {
  const wanted = [...new Set(usernames.filter((v): v is string => !!v))];
  if (!wanted.length) return {};
  const rows = await trx('utenti').whereIn('username', wanted).select('username', 'nome', 'cognome');
  return Object.fromEntries(rows.map((r: { username: string; nome: string; cognome: string }) => [r.username, `${r.nome} ${r.cognome}`.trim() || r.username]));
}
