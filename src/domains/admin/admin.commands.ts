import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { appendAudit } from '../audit/audit.chain';
import { hashPassword } from '../auth/password';
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
