import { createHash } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import { withTenant } from '../../src/db/tenant';
import { appendAudit, type AuditActionOf } from '../../src/domains/audit';
import { DocumentStore } from '../../src/domains/onboarding/document-store';
import { ONBOARDING_FAILURES, type OnboardingStep } from '../../workflows/onboarding/onboarding.contract';

/** Helpers shared by the onboarding activities: tenant transactions, row locks, audit, blob clean-up. */

export const notFound = (what: string) =>
  ApplicationFailure.create({ type: ONBOARDING_FAILURES.notFound, message: `${what} not found`, nonRetryable: true });

export type CaseRow = Record<string, any> & { id: string; cod_azienda: string; stato: string; workflow_id: string };

export const tx = <T>(db: Knex, p: { codAzienda: string; actor: { username: string } }, fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(db, { codAzienda: p.codAzienda, actor: p.actor.username }, fn);

export async function lockCase(trx: Knex.Transaction, caseId: string): Promise<CaseRow> {
  const row = await trx('onboarding_cases').where({ id: caseId }).forUpdate().first();
  if (!row) throw notFound(`onboarding case ${caseId}`);
  return row as CaseRow;
}

/** One audit event about the case (the admin timeline reads events by the case's id). */
export const auditCase = (trx: Knex.Transaction, p: OnboardingStep, action: AuditActionOf<'onboarding'>, data: Record<string, unknown>) =>
  appendAudit(trx, {
    codAzienda: p.codAzienda, actor: p.actor.username, action: `onboarding.${action}`, entityType: 'onboarding_case', entityId: p.caseId,
    data: { transition_id: p.transitionId, ...data },
  });

/** jsonb values go through JSON: the pg driver would turn a JS array into a PostgreSQL array. */
export const json = (v: unknown) => JSON.stringify(v ?? null);

/**
 * A UUID derived from the activity's idempotency key: a retried activity makes the same
 * id again, so a retry after a committed write changes nothing.
 */
export function derivedUuid(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Removes blobs no document row of the tenant refers to any more. Runs after the delete
 * committed: a failure here leaves an unreferenced file, never a row without its file.
 */
export async function removeUnreferencedBlobs(db: Knex, store: DocumentStore, codAzienda: string, shas: string[]): Promise<number> {
  const unique = [...new Set(shas)];
  if (!unique.length) return 0;
  // The document spine (docs/document-spine.md) indexes every kept copy: the same bytes recorded by
  // another area, or an onboarding document under legal hold, keep their file.
  const still = await withTenant(db, { codAzienda, actor: 'system' }, (trx) =>
    trx('onboarding_documents').whereIn('sha256', unique).distinct('sha256')
      .union((q) => q.from('documenti_spine').where({ cod_azienda: codAzienda }).whereIn('sha256', unique).distinct('sha256'))) as { sha256: string }[];
  const keep = new Set(still.map((r) => r.sha256));
  let removed = 0;
  for (const sha of unique) {
    if (keep.has(sha)) continue;
    await store.remove(codAzienda, sha);
    removed++;
  }
  return removed;
}

