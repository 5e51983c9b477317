import type { Knex } from 'knex';
import { appendAudit } from '../../audit';
import { withTenant } from '../../../db/tenant';
import { conflict, forbidden, notFound, ValidationError } from '../../../http/errors';
import { newRecordId } from '../../../kit/request-context';
import { nextCode } from '../../records';
import type { MachineActor } from '../../../../workflows/lib/machine';
import type { StatoCheck, TipoCheck, TipoVerifica } from '../verifications.vocabulary';
import { json, lockVerification } from './verification.open';
import type { KybProfile } from './verification.profile';
import { getVerificationRow, verificationActions, type CheckRow, type VerificationRow } from './verification.repo';

/**
 * The edits of a verification that are not transitions: a KYB's checks (pending, passed, failed,
 * waived) and its company profile. Each runs in a tenant transaction that locks the verification
 * row, so it cannot interleave with an approval reading the checks, and writes its audit event.
 */

/** Who records a check's outcome; a waiver is the compliance officer's alone. */
export const CHECK_EDITORS = ['co', 'analyst'] as const;
export const CHECK_WAIVERS = ['co'] as const;

type EditDeps = { db: Knex };
interface Target { codAzienda: string; actor: MachineActor; tipo: TipoVerifica; codVerifica: string }

const tx = <T>(deps: EditDeps, t: Target, fn: (trx: Knex.Transaction) => Promise<T>) => withTenant(deps.db, { codAzienda: t.codAzienda, actor: t.actor.username }, fn);

/** The verification, locked, still open; a decided one is a 409 with what may still be done (nothing). */
async function openKyb(trx: Knex.Transaction, t: Target, what: string): Promise<VerificationRow> {
  const found = await getVerificationRow(trx, t.codAzienda, t.tipo, t.codVerifica);
  if (!found) throw notFound('Verifica');
  const row = await lockVerification(trx, t.codAzienda, found.id);
  if (row.stato !== 'pending' && row.stato !== 'in_progress') {
    throw conflict('VERIFICATION_CLOSED', `La verifica è ${row.stato}: ${what} non si modifica più`, { state: row.stato, allowed_actions: verificationActions(row.stato, t.actor) });
  }
  return row;
}

const hasRole = (actor: MachineActor, roles: readonly string[]) => actor.roles.some((r) => roles.includes(r));

export interface CreateCheckRequest extends Target { tipoCheck: TipoCheck; descrizione?: string | null }

/** Adds a check to an open KYB: one per standard kind ('altro' may repeat). */
export async function createCheck(deps: EditDeps, r: CreateCheckRequest): Promise<CheckRow> {
  if (!hasRole(r.actor, CHECK_EDITORS)) throw forbidden('Solo il responsabile antiriciclaggio o un operatore aggiunge i controlli');
  return tx(deps, r, async (trx) => {
    const row = await openKyb(trx, r, 'l\'elenco dei controlli');
    if (r.tipoCheck !== 'altro' && await trx('verifiche_checks').where({ verifica_id: row.id, tipo: r.tipoCheck }).first('id')) {
      throw conflict('DUPLICATE_CHECK', 'Questo controllo è già nella verifica', { tipo: r.tipoCheck });
    }
    if (r.tipoCheck === 'altro' && !r.descrizione) throw new ValidationError([{ path: 'descrizione', message: 'Descrivi il controllo' }]);
    const codCheck = await nextCode(trx, r.codAzienda, 'CHK');
    const [check] = await trx('verifiche_checks').insert({
      id: newRecordId(), cod_azienda: r.codAzienda, verifica_id: row.id, cod_check: codCheck, tipo: r.tipoCheck, descrizione: r.descrizione ?? null, created_by: r.actor.id,
    }).returning('*');
    await appendAudit(trx, {
      codAzienda: r.codAzienda, actor: r.actor.username, action: 'verifica_check.create', entityType: 'verifica', entityId: row.id,
      data: { cod_verifica: row.cod_verifica, cod_check: codCheck, tipo: r.tipoCheck },
    });
    await trx('verifiche').where({ id: row.id }).update({ updated_at: new Date() });
    return check as CheckRow;
  });
}

export interface UpdateCheckRequest extends Target {
  codCheck: string;
  stato: StatoCheck;
  esitoNota?: string | null;
  evidenze?: unknown[];
  /** waived: why (required), by a compliance officer. */
  motivoDeroga?: string | null;
}

/** Records a check's outcome (passed, failed, back to pending) or its waiver (co, with a reason). */
export async function updateCheck(deps: EditDeps, r: UpdateCheckRequest): Promise<CheckRow> {
  if (r.stato === 'waived') {
    if (!hasRole(r.actor, CHECK_WAIVERS)) throw forbidden('Solo il responsabile antiriciclaggio può derogare un controllo');
    if (!r.motivoDeroga?.trim()) throw new ValidationError([{ path: 'motivo_deroga', message: 'Indica il motivo della deroga' }]);
  } else if (!hasRole(r.actor, CHECK_EDITORS)) {
    throw forbidden('Solo il responsabile antiriciclaggio o un operatore registra l\'esito dei controlli');
  }
  return tx(deps, r, async (trx) => {
    const row = await openKyb(trx, r, 'un controllo');
    const check = await trx('verifiche_checks').where({ cod_azienda: r.codAzienda, verifica_id: row.id, cod_check: r.codCheck }).first() as CheckRow | undefined;
    if (!check) throw notFound('Controllo', 'm');
    const waived = r.stato === 'waived';
    const [updated] = await trx('verifiche_checks').where({ id: check.id }).update({
      stato: r.stato, esito_nota: r.esitoNota ?? check.esito_nota, ...(r.evidenze ? { evidenze: json(r.evidenze) } : {}),
      motivo_deroga: waived ? r.motivoDeroga!.trim() : null, waived_by: waived ? r.actor.id : null, updated_by: r.actor.id, updated_at: new Date(),
    }).returning('*');
    await appendAudit(trx, {
      codAzienda: r.codAzienda, actor: r.actor.username, action: waived ? 'verifica_check.waive' : 'verifica_check.update', entityType: 'verifica', entityId: row.id,
      data: { cod_verifica: row.cod_verifica, cod_check: check.cod_check, tipo: check.tipo, from: check.stato, to: r.stato, ...(waived ? { reason: r.motivoDeroga!.trim() } : {}) },
    });
    await trx('verifiche').where({ id: row.id }).update({ updated_at: new Date() });
    return updated as CheckRow;
  });
}

/** Replaces an open KYB's company profile (validated by kybProfileSchema); the audit keeps the fields that changed. */
export async function updateProfile(deps: EditDeps, r: Target & { profilo: KybProfile }): Promise<VerificationRow> {
  if (!hasRole(r.actor, CHECK_EDITORS)) throw forbidden('Solo il responsabile antiriciclaggio o un operatore modifica il profilo societario');
  return tx(deps, r, async (trx) => {
    const row = await openKyb(trx, r, 'il profilo societario');
    const before = (row.profilo ?? {}) as Record<string, unknown>;
    const changed = Object.keys(r.profilo).filter((k) => JSON.stringify(before[k]) !== JSON.stringify((r.profilo as Record<string, unknown>)[k]));
    const [updated] = await trx('verifiche').where({ id: row.id }).update({ profilo: json(r.profilo), updated_at: new Date() }).returning('*');
    await appendAudit(trx, {
      codAzienda: r.codAzienda, actor: r.actor.username, action: 'verifica.profilo', entityType: 'verifica', entityId: row.id,
      data: { cod_verifica: row.cod_verifica, campi: changed },
    });
    return updated as VerificationRow;
  });
}
