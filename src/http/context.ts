import type { Knex } from 'knex';
import type { Role } from '../kit/roles';
import type { Navigation } from './navigation';

export interface SessionUser {
  cod_utente: string;
  cod_azienda: string | null;
  username: string;
  email: string;
  nome: string;
  cognome: string;
  ruoli: Role[];
  totp_enabled: boolean;
}

/** The columns of `utenti` a request carries as its SessionUser (read with the session, and at sign-in). */
export const SESSION_USER_FIELDS = ['cod_utente', 'cod_azienda', 'username', 'email', 'nome', 'cognome', 'ruoli', 'totp_enabled'] as const;

export interface SessionRow {
  id_hash: string;
  kind: string;
  cod_utente: string | null;
  tenant_attivo: string | null;
  mfa_ok: boolean;
  data: Record<string, unknown>;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

export interface AppState {
  session?: SessionRow;
  /** Signed in with both factors. A session that still owes the TOTP step never sets it. */
  user?: SessionUser;
  /** Password given, TOTP step owed: only the TOTP pages (caller 'second-factor') see this user. */
  pendingUser?: SessionUser;
  /** The tenant this request acts in: the user's, or the one a superadmin switched to. */
  tenant?: string | null;
  csrfToken?: string;
  flash?: { type: 'success' | 'danger' | 'warning' | 'info'; message: string }[];
  trx?: Knex.Transaction;
  /** The staff navigation of this application (from the registry). */
  navigation?: Navigation;
  /** The onboarding applicant (no account): a session bound to one case. */
  customer?: { caseId: string; codAzienda: string; sessionIdHash: string };
}

export const actorOf = (u: SessionUser | undefined) => (u ? u.username : 'system');
