import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import type { DocumentStore } from '../../src/domains/onboarding/document-store';
import { ONBOARDING_FAILURES, type OnboardingStep } from '../../workflows/onboarding/onboarding.contract';
import { screeningKeyPrefix } from './onboarding-screening';
import { auditCase, json, lockCase, removeUnreferencedBlobs, tx } from './onboarding.tx';

/**
 * GDPR erasure of a case never submitted (art. 17 GDPR; no AML retention applies yet),
 * asked by the applicant (`erased`) or done when an untouched draft expires (`expired`:
 * nothing was submitted, so nothing justifies keeping what was typed; art. 5(1)(e)):
 * documents with their files, wallets, links, sessions, screening subjects of the case,
 * the personal content of its signing ceremonies, the messages to the applicant (and the
 * codes of those ceremonies) in the outbox, and every personal field of the case row. The row itself stays, blank, as the trace that an erasure happened.
 */
export async function eraseCase(db: Knex, store: DocumentStore, p: OnboardingStep, to: 'erased' | 'expired' = 'erased'): Promise<void> {
  const shas = await tx(db, p, async (trx) => {
    const row = await lockCase(trx, p.caseId);
    if (row.erased_at) return [] as string[];
    if (row.submitted_at) {
      throw ApplicationFailure.create({ type: ONBOARDING_FAILURES.conflict, nonRetryable: true, message: `case ${p.caseId} was submitted: its data are kept for the AML retention period` });
    }
    const docs: { sha256: string }[] = await trx('onboarding_documents').where({ case_id: p.caseId }).select('sha256');
    await trx('onboarding_documents').where({ case_id: p.caseId }).delete();
    const wallets = await trx('onboarding_wallets').where({ case_id: p.caseId }).delete();
    await trx('onboarding_links').where({ case_id: p.caseId }).delete();
    await trx('onboarding_sessions').where({ case_id: p.caseId }).delete();

    const subjects: { id: string }[] = await trx('screening_subjects').where('cod_anagrafe', 'like', `${screeningKeyPrefix(p.caseId)}%`).select('id');
    const subjectIds = subjects.map((s) => s.id);
    if (subjectIds.length) {
      const matchIds = (await trx('screening_matches').whereIn('subject_id', subjectIds).select('id')).map((m: { id: string }) => m.id);
      if (matchIds.length) await trx('screening_suppressions').whereIn('match_id', matchIds).delete();
      await trx('screening_matches').whereIn('subject_id', subjectIds).delete();
      await trx('screening_subjects').whereIn('id', subjectIds).delete();
    }

    // A travel-rule declaration may have been signed in the draft: its ceremony keeps no personal content.
    const ceremonyIds: string[] = await trx('esign_ceremonies').where({ parent_workflow_id: row.workflow_id }).pluck('id');
    const ceremonies = await trx('esign_ceremonies').where({ parent_workflow_id: row.workflow_id }).update({
      signer_nome: 'dati cancellati', signer_email: '', document_content: Buffer.alloc(0), bundle: null, ip: null, user_agent: null, updated_at: new Date(),
    });
    // A message still pending is not sent any more: its delivery finds no row.
    const messages = await trx('outbox_messages').where((q) => {
      q.where({ entity_type: 'onboarding_case', entity_id: p.caseId });
      if (ceremonyIds.length) q.orWhere((c) => c.where('entity_type', 'esign_ceremony').whereIn('entity_id', ceremonyIds));
    }).delete();

    const now = new Date();
    await trx('onboarding_cases').where({ id: p.caseId }).update({
      stato: to, erased_at: now, updated_at: now, email: null,
      anagrafe: json({}), ubo: json([]), cdd_answers: json({}), cdd_schema_version: null, countries: json([]), travel_rule: json({}),
      validation: null, screening: null, risk: null, risk_score: null, risk_classe: null, pep: null,
      info_request_message: null, rejection_reason: null,
    });
    await auditCase(trx, p, to === 'erased' ? 'erase' : 'purge', {
      from: row.stato, to, documents: docs.length, wallets, screening_subjects: subjectIds.length, ceremonies, messages,
    });
    return docs.map((d) => d.sha256);
  });
  await removeUnreferencedBlobs(db, store, p.codAzienda, shas);
}
