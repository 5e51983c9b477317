import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { appendAudit } from '../audit';
import { hashPassword } from '../auth';
import { notFound } from '../../http/errors';
import type { AziendaCreate, UtenteCreate } from './admin.schemas';

export const USER_COLUMNS = ['cod_utente', 'cod_azienda', 'username', 'email', 'nome', 'cognome', 'ruoli', 'attivo', 'totp_enabled', 'last_login_at', 'created_at', 'updated_at'] as const;

/** Creates a tenant; its audit event opens the tenant's own chain. Runs in a platform-scope transaction. */
export async function createAzienda(trx: Knex.Transaction, input: AziendaCreate, actor: string) {
  const [row] = await trx('aziende').insert({ ...input }).returning('*');
  await appendAudit(trx, { codAzienda: input.cod_azienda, actor, action: 'azienda.created', entityType: 'azienda', entityId: input.cod_azienda, data: { ragione_sociale: input.ragione_sociale } });
  return row;
}

export async function createUtente(trx: Knex.Transaction, input: UtenteCreate, actor: string) {
  const { password, ...rest } = input;
  const [row] = await trx('utenti').insert({
    ...rest,
    cod_azienda: input.cod_azienda ?? null,
    cod_utente: randomUUID(),
    password_hash: await hashPassword(password),
  }).returning([...USER_COLUMNS]);
  await appendAudit(trx, { codAzienda: row.cod_azienda, actor, action: 'utente.created', entityType: 'utente', entityId: row.cod_utente, data: { username: row.username, ruoli: row.ruoli } });
  return row;
}

async function existing(q: Promise<any>, what: string): Promise<any> {
  const row = await q;
  if (!row) throw notFound(what);
  return row;
}

export async function updateAzienda(trx: Knex.Transaction, cod: string, patch: Record<string, unknown>, actor: string) {
  const before = await existing(trx('aziende').where({ cod_azienda: cod }).first(), 'Azienda');
  const [row] = await trx('aziende').where({ cod_azienda: cod }).update({ ...patch, updated_at: new Date() }).returning('*');
  const changed = Object.fromEntries(Object.keys(patch).filter((k) => before[k] !== row[k]).map((k) => [k, { from: before[k], to: row[k] }]));
  await appendAudit(trx, { codAzienda: cod, actor, action: 'attiva' in patch && Object.keys(patch).length === 1 ? (row.attiva ? 'azienda.activated' : 'azienda.deactivated') : 'azienda.updated', entityType: 'azienda', entityId: cod, data: { changed } });
  return row;
}

export async function updateUtente(trx: Knex.Transaction, cod: string, patch: { password?: string } & Record<string, unknown>, actor: string) {
  const before = await existing(trx('utenti').where({ cod_utente: cod }).first(USER_COLUMNS), 'Utente');
  const { password, ...fields } = patch;
  const update: Record<string, unknown> = { ...fields, updated_at: new Date() };
  if (password) update.password_hash = await hashPassword(password);
  const [row] = await trx('utenti').where({ cod_utente: cod }).update(update).returning([...USER_COLUMNS]);
  const changed = Object.fromEntries(Object.keys(fields).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(row[k])).map((k) => [k, { from: before[k], to: row[k] }]));
  if (password) changed.password = { from: '***', to: '***' };
  const action = Object.keys(fields).length === 1 && 'attivo' in fields ? (row.attivo ? 'utente.activated' : 'utente.deactivated') : 'utente.updated';
  await appendAudit(trx, { codAzienda: row.cod_azienda, actor, action, entityType: 'utente', entityId: cod, data: { changed } });
  return row;
}

/** Forgets the authenticator: the user enrols again at the next sign-in. */
export async function resetMfa(trx: Knex.Transaction, cod: string, actor: string) {
  const user = await existing(trx('utenti').where({ cod_utente: cod }).first(USER_COLUMNS), 'Utente');
  await trx('utenti').where({ cod_utente: cod }).update({ totp_secret: null, totp_enabled: false, totp_last_step: null, updated_at: new Date() });
  await appendAudit(trx, { codAzienda: user.cod_azienda, actor, action: 'utente.mfa_reset', entityType: 'utente', entityId: cod, data: { username: user.username } });
  return { ...user, totp_enabled: false };
}
