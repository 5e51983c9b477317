import type { Knex } from 'knex';
import { appendAudit } from '../../audit';
import { conflict, notFound, ValidationError } from '../../../http/errors';
import { newRecordId } from '../../../kit/request-context';
import { nextCode } from '../../records';
import type { MachineActor } from '../../../../workflows/lib/machine';
import { verificationWorkflowId, type VerificationWorkflowInput } from '../../../../workflows/verification/verification.contract';
import { KYB_STANDARD_CHECKS, type OrigineVerifica, type TipoVerifica } from '../verifications.vocabulary';
import { computeDeadline } from './verification.deadline';
import type { VerificationRow } from './verification.repo';

/** jsonb values go through JSON: the pg driver would turn a JS array into a PostgreSQL array. */
export const json = (v: unknown) => JSON.stringify(v ?? null);

export interface OpenVerificationRequest {
  codAzienda: string;
  actor: MachineActor;
  tipo: TipoVerifica;
  codAnagrafe: string;
  origine: OrigineVerifica;
  /** What the applicant or the operator declared (identity, company, owners as `titolari`). */
  datiDichiarati?: Record<string, unknown>;
  onboardingCaseId?: string | null;
  /** The documents (documenti.id) the verification relies on: their expiry brings its own forward. */
  documentiIds?: string[];
  /** KYB: the company profile, validated by the caller (kybProfileSchema). */
  profilo?: Record<string, unknown> | null;
  /** Chosen by the caller for a retry-safe open (the request's Idempotency-Key); default a new id. */
  verificaId?: string;
}

/** The customer kinds each verification is for: KYB for companies, KYC for persons (a sole trader is a person). */
const KIND_OF: Record<string, TipoVerifica> = { persona_fisica: 'kyc', ditta_individuale: 'kyc', societa: 'kyb' };

/**
 * Writes a new verification in the caller's transaction: the row with its progressive code and
 * deadline, the documents it relies on, a KYB's standard checks, and the audit event. The caller
 * starts its workflow after the commit (openVerification; the onboarding workflow for an approved
 * case). The same id again answers the row already written.
 */
export async function insertVerification(trx: Knex.Transaction, r: OpenVerificationRequest): Promise<{ row: VerificationRow; input: VerificationWorkflowInput; created: boolean }> {
  const id = r.verificaId ?? newRecordId();
  const existing = await trx('verifiche').where({ cod_azienda: r.codAzienda, id }).first() as VerificationRow | undefined;
  if (existing) return { row: existing, input: workflowInputOf(existing), created: false };

  const customer = await trx('anagrafe').where({ cod_azienda: r.codAzienda, cod_anagrafe: r.codAnagrafe }).first('tipo_soggetto', 'stato');
  if (!customer || customer.stato === 'eliminato') throw new ValidationError([{ path: 'cod_anagrafe', message: 'Cliente non trovato in anagrafe' }]);
  if (KIND_OF[customer.tipo_soggetto] !== r.tipo) {
    throw new ValidationError([{ path: 'cod_anagrafe', message: r.tipo === 'kyb' ? 'La verifica KYB è per le società: questo cliente è una persona' : 'La verifica KYC è per le persone: per una società apri una verifica KYB' }]);
  }
  const open = await trx('verifiche').where({ cod_azienda: r.codAzienda, cod_anagrafe: r.codAnagrafe, tipo: r.tipo }).whereIn('stato', ['pending', 'in_progress']).first('cod_verifica');
  if (open) throw conflict('VERIFICATION_OPEN', `Il cliente ha già una verifica ${r.tipo.toUpperCase()} aperta (${open.cod_verifica})`, { cod_verifica: open.cod_verifica });
  const documentiIds = [...new Set(r.documentiIds ?? [])];
  if (documentiIds.length) {
    const found = await trx('documenti').where({ cod_azienda: r.codAzienda }).whereIn('id', documentiIds).pluck('id');
    if (found.length !== documentiIds.length) throw new ValidationError([{ path: 'documenti', message: 'Documento non trovato' }]);
  }

  const codVerifica = await nextCode(trx, r.codAzienda, r.tipo === 'kyc' ? 'KYC' : 'KYB');
  const workflowId = verificationWorkflowId(r.codAzienda, codVerifica);
  const now = new Date();
  await trx('verifiche').insert({
    id, cod_azienda: r.codAzienda, cod_verifica: codVerifica, tipo: r.tipo, cod_anagrafe: r.codAnagrafe, stato: 'pending', origine: r.origine,
    onboarding_case_id: r.onboardingCaseId ?? null, dati_dichiarati: json(r.datiDichiarati ?? {}), profilo: r.tipo === 'kyb' && r.profilo ? json(r.profilo) : null,
    workflow_id: workflowId, created_by: r.actor.id, created_at: now, updated_at: now,
  });
  for (const documentoId of documentiIds) {
    await trx('verifiche_documenti').insert({ cod_azienda: r.codAzienda, verifica_id: id, documento_id: documentoId, created_at: now });
  }
  const checks: string[] = [];
  if (r.tipo === 'kyb') {
    for (const tipo of KYB_STANDARD_CHECKS) {
      const codCheck = await nextCode(trx, r.codAzienda, 'CHK');
      await trx('verifiche_checks').insert({ id: newRecordId(), cod_azienda: r.codAzienda, verifica_id: id, cod_check: codCheck, tipo, created_by: r.actor.id });
      checks.push(codCheck);
    }
    // STRUCTURE SEED (part ubo): once h/ubo's seedStructure is merged, call it here with the root
    // company (the customer) and the declared owners (datiDichiarati.titolari), in this transaction.
  }
  const deadline = await computeDeadline(trx, r.codAzienda, id, now);
  const [row] = await trx('verifiche').where({ id }).update({ scade_il: deadline.scadeIl }).returning('*');
  await appendAudit(trx, {
    codAzienda: r.codAzienda, actor: r.actor.username, action: 'verifica.create', entityType: 'verifica', entityId: id,
    data: {
      cod_verifica: codVerifica, tipo: r.tipo, cod_anagrafe: r.codAnagrafe, origine: r.origine, to: 'pending', workflow_id: workflowId,
      scade_il: deadline.scadeIl.toISOString(), scadenza: deadline.motivo, documenti: documentiIds.length, ...(checks.length ? { checks } : {}),
      ...(r.onboardingCaseId ? { onboarding_case_id: r.onboardingCaseId } : {}),
    },
  });
  return { row: row as VerificationRow, input: workflowInputOf(row as VerificationRow), created: true };
}

/** What a verification's workflow starts with: the row's state and deadline. */
export function workflowInputOf(row: VerificationRow): VerificationWorkflowInput {
  return {
    codAzienda: row.cod_azienda, verificaId: row.id, codVerifica: row.cod_verifica,
    initial: { stato: row.stato, scadeIl: row.scade_il === null ? null : new Date(row.scade_il).toISOString() },
  };
}

/** The row by id in the tenant, or 404 (a verification a caller named that is not there). */
export async function lockVerification(trx: Knex.Transaction, codAzienda: string, id: string): Promise<VerificationRow> {
  const row = await trx('verifiche').where({ cod_azienda: codAzienda, id }).forUpdate().first();
  if (!row) throw notFound('Verifica');
  return row as VerificationRow;
}
