import type { Knex } from 'knex';
import { HttpError } from '../../../http/errors';
import { createDocumento, type TipoDocumento } from '../../records';
import type { MachineActor } from '../../../../workflows/lib/machine';
import type { VerificationWorkflowInput } from '../../../../workflows/verification/verification.contract';
import { insertVerification, workflowInputOf } from './verification.open';
import type { VerificationRow } from './verification.repo';

type Obj = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** An uploaded onboarding document (onboarding_documents), with its content address. */
export interface OnboardingUpload { tipo: string; riferimento: string; nome_file: string; mime: string; dimensione: number; sha256: string }

export interface OnboardingVerificationRequest {
  codAzienda: string;
  actor: MachineActor;
  caseId: string;
  /** The id the verification gets: derived from the case, so a retried approval opens one. */
  verificaId: string;
  subjectType: string;
  /** The approved customer and, for a company, its legal representative (whose identity document it is). */
  codAnagrafe: string;
  codRappresentante: string | null;
  /** The case's form data (anagrafe jsonb) and its declared owners. */
  anagrafe: Obj;
  titolari: Obj[];
  uploads: OnboardingUpload[];
}

/** The company documents an onboarding collects, as document records (records' vocabulary). */
const COMPANY_DOCUMENTS: Record<string, TipoDocumento> = { visura_camerale: 'visura_camerale', atto_costitutivo: 'atto_costitutivo' };
const IDENTITY_TYPES = new Set(['carta_identita', 'passaporto', 'patente']);

/** A document record made once: the same type and number already recorded for the subject is that record. */
async function documentRecord(trx: Knex.Transaction, r: OnboardingVerificationRequest, input: Parameters<typeof createDocumento>[3]): Promise<string> {
  try {
    return (await createDocumento(trx, r.codAzienda, r.actor.username, input)).id;
  } catch (err) {
    const id = err instanceof HttpError && err.status === 409 ? (err.extra.id as string | undefined) : undefined;
    if (id) return id;
    throw err;
  }
}

/**
 * The verification an approved onboarding opens, in the approval's own transaction
 * (activities/onboarding/onboarding-materialise.ts): KYC for a person, KYB for a company, with
 * what the applicant gave: the form data and the declared owners as `dati_dichiarati`, the
 * identity document (with its expiry) and the company documents as document records the
 * verification relies on, a KYB's profile as far as the form tells it. Answers the workflow to
 * start (the onboarding workflow starts it as a child), or null when nothing new was opened: the
 * customer, matched in the registry, already has a verification of that kind open.
 */
export async function openOnboardingVerification(trx: Knex.Transaction, r: OnboardingVerificationRequest): Promise<{ workflowId: string; input: VerificationWorkflowInput } | null> {
  const mine = await trx('verifiche').where({ cod_azienda: r.codAzienda, id: r.verificaId }).first() as VerificationRow | undefined;
  if (mine) return { workflowId: mine.workflow_id, input: workflowInputOf(mine) };
  const tipo = r.subjectType === 'societa' ? 'kyb' : 'kyc';
  const open = await trx('verifiche').where({ cod_azienda: r.codAzienda, cod_anagrafe: r.codAnagrafe, tipo }).whereIn('stato', ['pending', 'in_progress']).first('id');
  if (open) return null;

  const documentiIds: string[] = [];
  const holder = tipo === 'kyb' ? (r.anagrafe.legale_rappresentante ?? {}) as Obj : r.anagrafe;
  const idDoc = (holder.documento ?? {}) as Obj;
  const idUpload = r.uploads.find((u) => u.tipo === 'documento_identita' && u.riferimento === 'soggetto');
  const idOwner = tipo === 'kyb' ? r.codRappresentante : r.codAnagrafe;
  if (idOwner && IDENTITY_TYPES.has(String(idDoc.tipo)) && str(idDoc.numero)) {
    documentiIds.push(await documentRecord(trx, r, {
      cod_anagrafe: idOwner, tipo: idDoc.tipo as TipoDocumento, numero: str(idDoc.numero), autorita_rilascio: str(idDoc.rilasciato_da),
      data_scadenza: str(idDoc.scadenza), sha256: idUpload?.sha256 ?? null, nome_file: idUpload?.nome_file ?? null, mime: idUpload?.mime ?? null, dimensione: idUpload?.dimensione ?? null,
    }));
  }
  for (const u of r.uploads.filter((x) => x.riferimento === 'soggetto' && COMPANY_DOCUMENTS[x.tipo])) {
    documentiIds.push(await documentRecord(trx, r, {
      cod_anagrafe: r.codAnagrafe, tipo: COMPANY_DOCUMENTS[u.tipo]!, sha256: u.sha256, nome_file: u.nome_file, mime: u.mime, dimensione: u.dimensione,
    }));
  }

  const sede = (r.anagrafe.sede ?? {}) as Obj;
  // What the form tells of the company profile; the rest (REA, ATECO, capital) is the analyst's, validated on update.
  const profilo = tipo === 'kyb' ? Object.fromEntries(Object.entries({
    forma_giuridica: str(r.anagrafe.forma_giuridica), paese_costituzione: str(r.anagrafe.paese_costituzione), data_costituzione: str(r.anagrafe.data_costituzione),
    sede_legale: { indirizzo: str(sede.via), cap: str(sede.cap), comune: str(sede.citta), provincia: str(sede.provincia), paese: str(sede.paese) },
  }).filter(([, v]) => v !== null)) : null;
  const { row, input } = await insertVerification(trx, {
    codAzienda: r.codAzienda, actor: r.actor, tipo, codAnagrafe: r.codAnagrafe, origine: 'onboarding', onboardingCaseId: r.caseId, verificaId: r.verificaId,
    datiDichiarati: { ...r.anagrafe, ...(tipo === 'kyb' ? { titolari: r.titolari } : {}) }, documentiIds, profilo,
  });
  return { workflowId: row.workflow_id, input };
}
