import type { Knex } from 'knex';
import { ONBOARDING_FAILURES } from '../../../workflows/onboarding/onboarding.contract';
import { getSetting } from '../admin';

/**
 * What one case may upload through the anonymous wizard, besides the per-file limit: a
 * number of documents and a total of bytes (tenant settings). The web checks it before
 * storing the bytes; the edit activity checks it again under the case's row lock, so two
 * parallel uploads cannot both take the last share. Deleted documents free theirs.
 */
export interface DocumentLimits { maxDocuments: number; maxBytes: number }
export interface DocumentUsage { documents: number; bytes: number }

export type DocumentLimitRefusal = {
  code: typeof ONBOARDING_FAILURES.tooManyDocuments | typeof ONBOARDING_FAILURES.documentsTooLarge;
  /** 413 for the bytes, 422 for the count. */
  status: 413 | 422;
  details: { max_documents: number; max_bytes: number; documents: number; bytes: number };
};

const MB = 1024 * 1024;

export async function documentLimits(trx: Knex.Transaction, codAzienda: string): Promise<DocumentLimits> {
  return {
    maxDocuments: await getSetting(trx, 'onboarding.max_documents', codAzienda),
    maxBytes: (await getSetting(trx, 'onboarding.max_documents_mb', codAzienda)) * MB,
  };
}

export async function documentUsage(trx: Knex.Transaction, caseId: string): Promise<DocumentUsage> {
  const r = await trx('onboarding_documents').where({ case_id: caseId }).first(trx.raw('count(*)::int as documents'), trx.raw('coalesce(sum(dimensione), 0)::bigint as bytes'));
  return { documents: Number(r?.documents ?? 0), bytes: Number(r?.bytes ?? 0) };
}

/** Whether one more document of `size` bytes fits; the refusal when it does not. */
export function documentLimitRefusal(limits: DocumentLimits, usage: DocumentUsage, size: number): DocumentLimitRefusal | null {
  const details = { max_documents: limits.maxDocuments, max_bytes: limits.maxBytes, documents: usage.documents, bytes: usage.bytes };
  if (usage.documents + 1 > limits.maxDocuments) return { code: ONBOARDING_FAILURES.tooManyDocuments, status: 422, details };
  if (usage.bytes + size > limits.maxBytes) return { code: ONBOARDING_FAILURES.documentsTooLarge, status: 413, details };
  return null;
}

const mb = (bytes: unknown) => (Number(bytes ?? 0) / MB).toLocaleString('it-IT', { maximumFractionDigits: 1 });

/** The applicant's message for a refusal (the field's message on the page, the problem's detail in the API). */
export function documentLimitMessage(code: string, d: Record<string, unknown>): string {
  if (code === ONBOARDING_FAILURES.tooManyDocuments) {
    return `Hai già caricato il numero massimo di documenti per questa richiesta (${String(d.max_documents ?? '—')}): eliminane uno per caricarne un altro`;
  }
  return `Con questo file i documenti della richiesta supererebbero il totale ammesso di ${mb(d.max_bytes)} MB (già caricati ${mb(d.bytes)} MB): elimina qualche documento o carica un file più piccolo`;
}
