import { withPlatform, type PlatformDb } from '../../db/tenant';
import { HttpError, tooManyRequests } from '../../http/errors';
import type { Logger } from '../../infra/logger';
import type { SecretBox } from '../../lib/secret-box';
import { appendAudit, type AuditAction } from '../audit';
import { blockedFor, recordFailure, recordSuccess, type ThrottleSubject } from './login.throttle';
import { burnPasswordCheck, verifyPassword } from './password';
import type { Role } from '../../kit/roles';
import { matchTotpStep } from './totp';

/** The account as sign-in needs it: credentials, second factor and whether it may sign in at all. */
export interface LoginAccount {
  cod_utente: string;
  cod_azienda: string | null;
  username: string;
  password_hash: string;
  ruoli: Role[];
  attivo: boolean;
  totp_enabled: boolean;
  totp_secret: string | null;
  totp_last_step: string | number | null;
  azienda_attiva: boolean | null;
}

export const invalidCredentials = () =>
  new HttpError(401, 'INVALID_CREDENTIALS', 'Accesso non riuscito', 'Nome utente o password non validi');
export const invalidTotp = () =>
  new HttpError(401, 'INVALID_TOTP', 'Codice non valido', 'Il codice di verifica non è valido o è già stato usato');
export const mfaRequired = () =>
  new HttpError(401, 'MFA_REQUIRED', 'Secondo fattore richiesto', 'Inserisci il codice TOTP della tua app di autenticazione');
export const mfaEnrolmentRequired = () =>
  new HttpError(403, 'MFA_ENROLMENT_REQUIRED', 'Configurazione TOTP richiesta', "Configura l'autenticazione a due fattori accedendo dall'interfaccia web");
const throttled = (seconds: number) =>
  tooManyRequests(`Troppi tentativi di accesso non riusciti. Riprova tra ${Math.ceil(seconds / 60)} minuti.`, seconds);

async function findAccount(db: PlatformDb, username: string): Promise<LoginAccount | undefined> {
  return withPlatform(db, null, (trx) =>
    trx('utenti as u').leftJoin('aziende as a', 'a.cod_azienda', 'u.cod_azienda')
      .whereRaw('lower(u.username) = lower(?)', [username.trim()])
      .first('u.cod_utente', 'u.cod_azienda', 'u.username', 'u.password_hash', 'u.ruoli', 'u.attivo',
        'u.totp_enabled', 'u.totp_secret', 'u.totp_last_step', 'a.attiva as azienda_attiva'));
}

export class SignIn {
  constructor(private readonly db: PlatformDb, private readonly log: Logger, private readonly secrets: SecretBox) {}

  async ensureNotBlocked(s: ThrottleSubject) {
    const seconds = await blockedFor(this.db, s);
    if (seconds > 0) {
      this.log.warn({ username: s.username, ip: s.ip }, 'sign-in refused: throttled');
      throw throttled(seconds);
    }
  }

  /** Counts the failure and throws: the block if it reached a limit, otherwise the given error. */
  async fail(s: ThrottleSubject, reason: string, err: HttpError): Promise<never> {
    this.log.warn({ username: s.username, ip: s.ip, reason }, 'sign-in failed');
    const blocked = await recordFailure(this.db, s);
    throw blocked > 0 ? throttled(blocked) : err;
  }

  /**
   * First factor. Unknown user, wrong password, disabled user and disabled tenant all give
   * the same answer after the same work, so none of them can be told apart from outside.
   */
  async checkPassword(s: ThrottleSubject, password: string): Promise<LoginAccount> {
    await this.ensureNotBlocked(s);
    const account = await findAccount(this.db, s.username);
    let ok = false;
    if (account) ok = await verifyPassword(account.password_hash, password);
    else await burnPasswordCheck(password);
    if (!account || !ok) return this.fail(s, account ? 'wrong_password' : 'unknown_user', invalidCredentials());
    if (!account.attivo) return this.fail(s, 'user_inactive', invalidCredentials());
    if (account.cod_azienda && account.azienda_attiva === false) return this.fail(s, 'tenant_inactive', invalidCredentials());
    return account;
  }

  /** The account again (for the second step, which runs in a later request). */
  async reload(codUtente: string): Promise<LoginAccount | undefined> {
    return withPlatform(this.db, null, (trx) =>
      trx('utenti as u').leftJoin('aziende as a', 'a.cod_azienda', 'u.cod_azienda').where('u.cod_utente', codUtente)
        .first('u.cod_utente', 'u.cod_azienda', 'u.username', 'u.password_hash', 'u.ruoli', 'u.attivo',
          'u.totp_enabled', 'u.totp_secret', 'u.totp_last_step', 'a.attiva as azienda_attiva'));
  }

  /**
   * Second factor for an enrolled account, then the sign-in is recorded. The accepted step is
   * stored with a conditional update, so a code (or an older one) cannot be used twice even
   * by two concurrent requests.
   */
  async completeWithTotp(s: ThrottleSubject, account: LoginAccount, code: string, via: 'api' | 'page') {
    await this.ensureNotBlocked(s);
    const step = account.totp_secret ? matchTotpStep(this.secrets.open(account.totp_secret), code) : null;
    if (step === null) return this.fail(s, 'wrong_totp', invalidTotp());
    const accepted = await withPlatform(this.db, account.username, async (trx) => {
      const n = await trx('utenti').where({ cod_utente: account.cod_utente, totp_enabled: true })
        .andWhere((q) => q.whereNull('totp_last_step').orWhere('totp_last_step', '<', step))
        .update({ totp_last_step: step, last_login_at: new Date() });
      if (n === 0) return false;
      await appendAudit(trx, { codAzienda: account.cod_azienda, actor: account.username, action: 'auth.login', entityType: 'utente', entityId: account.cod_utente, data: { via } });
      return true;
    });
    if (!accepted) return this.fail(s, 'reused_totp', invalidTotp());
    await recordSuccess(this.db, s);
    this.log.info({ username: account.username, via }, 'signed in');
  }

  /** Confirms a pending TOTP secret with a first code: the secret is saved and the sign-in recorded. */
  async enrolTotp(s: ThrottleSubject, account: LoginAccount, pendingSecret: string, code: string) {
    await this.ensureNotBlocked(s);
    const step = matchTotpStep(pendingSecret, code);
    if (step === null) return this.fail(s, 'wrong_totp_enrolment', invalidTotp());
    const saved = await withPlatform(this.db, account.username, async (trx) => {
      const n = await trx('utenti').where({ cod_utente: account.cod_utente, totp_enabled: false })
        .update({ totp_secret: this.secrets.seal(pendingSecret), totp_enabled: true, totp_last_step: step, last_login_at: new Date(), updated_at: new Date() });
      if (n === 0) return false;
      await appendAudit(trx, { codAzienda: account.cod_azienda, actor: account.username, action: 'utente.totp_enrolled', entityType: 'utente', entityId: account.cod_utente });
      await appendAudit(trx, { codAzienda: account.cod_azienda, actor: account.username, action: 'auth.login', entityType: 'utente', entityId: account.cod_utente, data: { via: 'page', enrolment: true } });
      return true;
    });
    // Someone enrolled this account in the meantime: the pending secret is no longer the right one.
    if (!saved) throw new HttpError(409, 'TOTP_ALREADY_ENROLLED', 'TOTP già configurato', "L'autenticazione a due fattori è già attiva: accedi di nuovo");
    await recordSuccess(this.db, s);
    this.log.info({ username: account.username }, 'TOTP enrolled, signed in');
  }

  async audit(account: { cod_utente: string; cod_azienda: string | null; username: string }, action: AuditAction, data: Record<string, unknown> = {}, chain?: string | null) {
    await withPlatform(this.db, account.username, (trx) =>
      appendAudit(trx, { codAzienda: chain === undefined ? account.cod_azienda : chain, actor: account.username, action, entityType: 'utente', entityId: account.cod_utente, data }));
  }
}
