import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { withPlatform, type PlatformDb } from '../db/tenant';
import { SESSION_USER_FIELDS as USER_FIELDS, type SessionRow, type SessionUser } from './context';

const hashId = (id: string) => createHash('sha256').update(id).digest('hex');

export interface SessionPolicy { idleMinutes: number; absoluteHours: number }

/**
 * Server-side sessions in PostgreSQL. The cookie carries a random id; the table keeps
 * only its hash, so a leaked table cannot be replayed as cookies. Sessions belong to the
 * platform role: a session row names the tenant a request works in, so the application
 * role has no right on the table at all.
 */
export class SessionStore {
  constructor(private readonly platform: PlatformDb, private readonly policy: SessionPolicy) {}

  private inPlatform<T>(fn: (sessions: () => Knex.QueryBuilder) => Promise<T>): Promise<T> {
    return withPlatform(this.platform, null, (trx) => fn(() => trx('sessions')));
  }

  async create(input: { kind?: string; codUtente: string | null; tenant: string | null; mfaOk: boolean; ip?: string; userAgent?: string; data?: Record<string, unknown> }): Promise<{ id: string; row: SessionRow }> {
    const id = randomBytes(32).toString('base64url');
    const now = new Date();
    const [row] = await this.inPlatform((sessions) => sessions().insert({
      id_hash: hashId(id),
      kind: input.kind ?? 'staff',
      cod_utente: input.codUtente,
      tenant_attivo: input.tenant,
      mfa_ok: input.mfaOk,
      data: input.data ?? {},
      ip: input.ip,
      user_agent: input.userAgent?.slice(0, 400),
      created_at: now,
      last_seen_at: now,
      expires_at: new Date(now.getTime() + this.policy.absoluteHours * 3600_000),
    }).returning('*'));
    return { id, row: row as SessionRow };
  }

  /**
   * The live session for a cookie value with its user, in one statement; undefined when
   * unknown, idle too long or past its absolute end. `user` is null when the session's user
   * (or the user's tenant) was disabled: such a session is dead.
   */
  async load(id: string): Promise<{ row: SessionRow; user: SessionUser | null } | undefined> {
    const found = await this.platform.statement((knex) => knex('sessions as s')
      .leftJoin('utenti as u', 'u.cod_utente', 's.cod_utente')
      .leftJoin('aziende as a', 'a.cod_azienda', 'u.cod_azienda')
      .where('s.id_hash', hashId(id))
      .first('s.*', ...USER_FIELDS.map((f) => `u.${f} as user_${f}`),
        knex.raw('(u.attivo and (u.cod_azienda is null or a.attiva)) as user_live'))) as Record<string, unknown> | undefined;
    if (!found) return undefined;
    const row = Object.fromEntries(Object.entries(found).filter(([k]) => !k.startsWith('user_'))) as unknown as SessionRow;
    const now = Date.now();
    const idleLimit = new Date(row.last_seen_at).getTime() + this.policy.idleMinutes * 60_000;
    if (now > new Date(row.expires_at).getTime() || now > idleLimit) {
      await this.destroy(row.id_hash);
      return undefined;
    }
    // Touch at most once a minute: the idle clock does not need more precision than that.
    if (now - new Date(row.last_seen_at).getTime() > 60_000) {
      await this.inPlatform((sessions) => sessions().where({ id_hash: row.id_hash }).update({ last_seen_at: new Date() }));
    }
    const user = found.user_live ? Object.fromEntries(USER_FIELDS.map((f) => [f, found[`user_${f}`]])) as unknown as SessionUser : null;
    return { row, user };
  }

  async update(idHash: string, patch: Partial<Pick<SessionRow, 'mfa_ok' | 'tenant_attivo' | 'data'>>): Promise<void> {
    await this.inPlatform((sessions) => sessions().where({ id_hash: idHash }).update(patch));
  }

  async destroy(idHash: string): Promise<void> {
    await this.inPlatform((sessions) => sessions().where({ id_hash: idHash }).delete());
  }

  async destroyForUser(codUtente: string): Promise<void> {
    await this.inPlatform((sessions) => sessions().where({ cod_utente: codUtente }).delete());
  }

  async purgeExpired(): Promise<number> {
    return this.inPlatform((sessions) => sessions().where('expires_at', '<', new Date()).delete());
  }
}
