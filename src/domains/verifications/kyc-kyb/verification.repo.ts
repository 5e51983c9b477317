import type { Knex } from 'knex';
import { runList, tenantScope, type ListRequest } from '../../../kit/list';
import { actionsFrom, allowedActions, type MachineActor } from '../../../../workflows/lib/machine';
import type { VerificationRecord } from '../../../../workflows/verification/verification.contract';
import { verificationMachine, VERIFICATION_USER_ACTIONS, type VerificationUserAction } from '../../../../workflows/verification/verification.machine';
import type { StatoCheck, TipoCheck, TipoVerifica } from '../verifications.vocabulary';
import { verificationsList } from './verification.list';

/** Reads of the verifications' projection. Always inside withTenant: RLS hides other tenants' rows. */

export type VerificationRow = VerificationRecord;

export interface CheckRow {
  id: string;
  cod_azienda: string;
  verifica_id: string;
  cod_check: string;
  tipo: TipoCheck;
  descrizione: string | null;
  stato: StatoCheck;
  esito_nota: string | null;
  evidenze: unknown[];
  motivo_deroga: string | null;
  waived_by: string | null;
  updated_by: string | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/** A document the verification relied on, as the API and the console show it. */
export interface VerificationDocument {
  id: string;
  cod_documento: string | null;
  tipo: string;
  numero: string | null;
  data_scadenza: string | null;
  stato: string;
  nome_file: string | null;
  mime: string | null;
}

/** The row plus what the caller may do now (the buttons), the documents it relied on and, for a KYB, its checks. */
export type VerificationView = VerificationRow & { azioni: VerificationUserAction[]; documenti: VerificationDocument[]; checks?: CheckRow[] };

const CODE = { kyc: /^KYC-[0-9]{6,}$/, kyb: /^KYB-[0-9]{6,}$/ } as const;

/** The row by its code, when it is this tenant's and of this kind (a KYB code on the KYC path is not found). */
export async function getVerificationRow(trx: Knex.Transaction, codAzienda: string, tipo: TipoVerifica, codVerifica: string): Promise<VerificationRow | undefined> {
  if (!CODE[tipo].test(codVerifica)) return undefined;
  return trx('verifiche').where({ cod_azienda: codAzienda, tipo, cod_verifica: codVerifica }).first() as Promise<VerificationRow | undefined>;
}

/** The user actions this actor may take now; without an actor, every user action the state admits. */
export function verificationActions(stato: VerificationRow['stato'], actor?: MachineActor): VerificationUserAction[] {
  const all = actor ? allowedActions(verificationMachine, stato, actor) : actionsFrom(verificationMachine, stato);
  return all.filter((a): a is VerificationUserAction => (VERIFICATION_USER_ACTIONS as readonly string[]).includes(a));
}

export async function listChecks(trx: Knex.Transaction, verificaId: string): Promise<CheckRow[]> {
  return trx('verifiche_checks').where({ verifica_id: verificaId }).orderBy([{ column: 'created_at' }, { column: 'cod_check' }]) as Promise<CheckRow[]>;
}

export async function verificationDocuments(trx: Knex.Transaction, verificaId: string): Promise<VerificationDocument[]> {
  return trx('verifiche_documenti as vd').join('documenti as d', 'd.id', 'vd.documento_id').where('vd.verifica_id', verificaId)
    .orderBy([{ column: 'vd.created_at' }, { column: 'd.id' }])
    .select('d.id', 'd.cod_documento', 'd.tipo', 'd.numero', trx.raw("to_char(d.data_scadenza, 'YYYY-MM-DD') as data_scadenza"), 'd.stato', 'd.nome_file', 'd.mime');
}

/** The view of a row: its documents, its checks (KYB) and the caller's actions. */
export async function viewOf(trx: Knex.Transaction, row: VerificationRow, actor?: MachineActor): Promise<VerificationView> {
  const documenti = await verificationDocuments(trx, row.id);
  const view: VerificationView = { ...row, azioni: verificationActions(row.stato, actor), documenti };
  if (row.tipo === 'kyb') view.checks = await listChecks(trx, row.id);
  return view;
}

/**
 * A verification by kind and code, as the API and the console show it; undefined when it is not
 * this tenant's (the caller answers 404). `actor` narrows `azioni` to what that user may do.
 */
export async function getVerification(trx: Knex.Transaction, codAzienda: string, tipo: TipoVerifica, codVerifica: string, actor?: MachineActor): Promise<VerificationView | undefined> {
  const row = await getVerificationRow(trx, codAzienda, tipo, codVerifica);
  return row ? viewOf(trx, row, actor) : undefined;
}

export interface VerificationListQuery extends ListRequest {
  stato?: string; origine?: string; cod_anagrafe?: string; q?: string;
}

/** One kind's list, through the list kit. */
export async function listVerifications(trx: Knex.Transaction, codAzienda: string, tipo: TipoVerifica, q: VerificationListQuery) {
  return runList<VerificationRow>(trx, verificationsList, tenantScope(codAzienda), { ...q, tipo } as ListRequest);
}

/** A customer's verifications, newest first (the customer file's "Verifiche" section). */
export async function verificationsForCustomer(trx: Knex.Transaction, codAzienda: string, codAnagrafe: string): Promise<VerificationRow[]> {
  return trx('verifiche').where({ cod_azienda: codAzienda, cod_anagrafe: codAnagrafe }).orderBy('created_at', 'desc').limit(200) as Promise<VerificationRow[]>;
}

/** The audit trail of one verification (its timeline), oldest first. */
export async function verificationAudit(trx: Knex.Transaction, codAzienda: string, verificaId: string) {
  return trx('audit_events').where({ cod_azienda: codAzienda, entity_type: 'verifica', entity_id: verificaId })
    .orderByRaw('seq nulls last, id').select('seq', 'action', 'actor', 'occurred_at', 'data');
}
