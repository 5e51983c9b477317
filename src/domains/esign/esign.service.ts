import { timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../deps';
import { withPlatform, withTenant } from '../../db/tenant';
import type { SessionUser } from '../../http/context';
import { notFound, ValidationError } from '../../http/errors';
import type { EsignClientInfo, EsignTransitionArgs } from '../../../workflows/esign/esign.contract';
import { esignMachine, MAX_OTP_ATTEMPTS, MAX_OTP_SENDS, OTP_RESEND_INTERVAL_MS, SIGNER_ROLE, type EsignStatus } from '../../../workflows/esign/esign.machine';
import { allowedActions } from '../../../workflows/lib/machine';
import { hasRole } from '../../http/auth';
import { STAFF_READ } from '../../kit/roles';
import type { EsignBundle } from './esign.bundle';
import { tokenHash, transitionCeremony, type EsignTemporal } from './esign.commands';
import { isUuid } from '../../kit/ids';

export interface CeremonyRow {
  id: string; cod_azienda: string; stato: EsignStatus; signer_nome: string; signer_email: string; document_name: string;
  document_sha256: string | null; consent_text: string; consent_version: string; otp_attempts: number; token_hash: string;
  ip: string | null; user_agent: string | null; created_at: Date; terms_accepted_at: Date | null; presented_at: Date | null;
  signed_at: Date | null; expires_at: Date; bundle: EsignBundle | null; workflow_id: string; parent_workflow_id: string | null;
  otp_sends: number; otp_sent_at: Date | null;
}

const COLUMNS = [
  'id', 'cod_azienda', 'stato', 'signer_nome', 'signer_email', 'document_name', 'document_sha256', 'consent_text', 'consent_version',
  'otp_attempts', 'token_hash', 'ip', 'user_agent', 'created_at', 'terms_accepted_at', 'presented_at', 'signed_at', 'expires_at',
  'bundle', 'workflow_id', 'parent_workflow_id', 'otp_sends', 'otp_sent_at',
];
const NOT_FOUND = () => notFound('Cerimonia di firma');

export const esignTemporal = async (deps: Deps): Promise<EsignTemporal> => ({ client: await deps.temporal.get(), taskQueue: deps.temporal.taskQueue });

/**
 * The signer's way in: the ceremony id plus the link's token. The tenant is not known
 * yet, so the lookup runs with platform scope, by id only; a wrong or missing token is
 * the same 404 as a missing ceremony, so the link reveals nothing.
 */
export async function ceremonyByToken(deps: Deps, id: string, token: string | undefined): Promise<CeremonyRow> {
  if (!token || !isUuid(id)) throw NOT_FOUND();
  const row = await withPlatform(deps.platformDb, 'firmatario', (trx) => trx('esign_ceremonies').where({ id }).first(COLUMNS)) as CeremonyRow | undefined;
  const a = Buffer.from(tokenHash(token));
  if (!row || !timingSafeEqual(a, Buffer.from(row.token_hash.padEnd(a.length).slice(0, a.length)))) throw NOT_FOUND();
  return row;
}

/** Staff of the ceremony's tenant: RLS hides every other tenant's rows. */
export async function ceremonyForStaff(deps: Deps, codAzienda: string, user: SessionUser, id: string): Promise<CeremonyRow> {
  if (!isUuid(id)) throw NOT_FOUND();
  const row = await withTenant(deps.db, { codAzienda, actor: user.username }, (trx) => trx('esign_ceremonies').where({ id }).first(COLUMNS)) as CeremonyRow | undefined;
  if (!row) throw NOT_FOUND();
  return row;
}

/** Token first (the signer), else a staff session of the tenant; anything else is 404. */
export async function resolveCeremony(deps: Deps, id: string, token: string | undefined, user: SessionUser | undefined): Promise<CeremonyRow> {
  if (token) return ceremonyByToken(deps, id, token);
  if (user && user.cod_azienda && hasRole(user, STAFF_READ)) return ceremonyForStaff(deps, user.cod_azienda, user, id);
  throw NOT_FOUND();
}

export function ceremonyView(row: CeremonyRow) {
  const resendsLeft = row.stato === 'presented' ? Math.max(0, MAX_OTP_SENDS - row.otp_sends) : 0;
  const allowed = allowedActions(esignMachine, row.stato, { id: `signer:${row.id}`, username: 'firmatario', roles: [SIGNER_ROLE] });
  return {
    id: row.id,
    stato: row.stato,
    signer: { nome: row.signer_nome, email: row.signer_email },
    document: { nome: row.document_name, sha256: row.document_sha256 },
    consent: { testo: row.consent_text, versione: row.consent_version },
    otp_attempts: row.otp_attempts,
    expires_at: new Date(row.expires_at).toISOString(),
    signed_at: row.signed_at ? new Date(row.signed_at).toISOString() : null,
    allowed_actions: resendsLeft ? allowed : allowed.filter((a) => a !== 'resend'),
    workflow_id: row.workflow_id,
    otp: {
      sent_at: row.otp_sent_at ? new Date(row.otp_sent_at).toISOString() : null,
      resends_left: resendsLeft,
      // The workflow decides; this is when it will say yes.
      resend_from: row.otp_sent_at && resendsLeft ? new Date(new Date(row.otp_sent_at).getTime() + OTP_RESEND_INTERVAL_MS).toISOString() : null,
    },
  };
}

/**
 * A signer step. A wrong code is a 422 on the otp field with the attempts left; the
 * third wrong code locks the ceremony (the workflow counts).
 */
export async function signerStep(deps: Deps, row: CeremonyRow, action: EsignTransitionArgs['action'], client: EsignClientInfo, otp?: string) {
  const state = await transitionCeremony(await esignTemporal(deps), row, { action, client, otp });
  if (action === 'sign' && state.lastOtp === 'wrong') {
    const left = Math.max(0, MAX_OTP_ATTEMPTS - state.otpFailures);
    const err = new ValidationError([{ path: 'otp', message: left ? `Codice errato: restano ${left} tentativi` : 'Codice errato: la cerimonia è bloccata' }], left ? 'Codice OTP errato' : 'Troppi codici errati: cerimonia bloccata');
    Object.assign(err.extra, { attempts_left: left, stato: state.status });
    throw err;
  }
  const fresh = await ceremonyByIdPlatform(deps, row.id);
  return fresh;
}

async function ceremonyByIdPlatform(deps: Deps, id: string): Promise<CeremonyRow> {
  const row = await withPlatform(deps.platformDb, 'firmatario', (trx) => trx('esign_ceremonies').where({ id }).first(COLUMNS)) as CeremonyRow | undefined;
  if (!row) throw NOT_FOUND();
  return row;
}

