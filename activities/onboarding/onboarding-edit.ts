import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import { documentLimitRefusal, documentLimits, documentUsage } from '../../src/domains/onboarding/document-limits';
import type { DocumentStore } from '../../src/domains/onboarding/document-store';
import { TRAVEL_RULE_VERSION } from '../../src/domains/onboarding/onboarding.schemas';
import { uboOwners } from '../../src/domains/onboarding/onboarding.validation';
import {
  ONBOARDING_FAILURES, type DocumentMeta, type OnboardingEdit, type OnboardingStep, type WalletInput, type WalletSummary,
} from '../../workflows/onboarding/onboarding.contract';
import { auditCase, derivedUuid, json, lockCase, removeUnreferencedBlobs, tx } from './onboarding.tx';
import { isUuid } from '../../src/kit/ids';

type Section = Extract<OnboardingEdit, { kind: 'section' }>;

/** What a wallet's proof amounts to for the reviewer (and the workflow's verify guard). */
export function walletProof(prova: WalletInput['prova']): WalletSummary['proof'] {
  if (!prova) return null;
  if (prova.metodo === 'dichiarazione') return 'dichiarazione';
  if (prova.verificata === true) return 'firma_verificata';
  if (prova.verificata === null || prova.verificata === undefined) return 'firma_non_verificata';
  return null;
}

export function walletSummary(w: { id: string; stato?: string; tipo: string; volume_annuo_eur?: number | string | null; prova?: WalletInput['prova'] }): WalletSummary {
  const v = w.volume_annuo_eur;
  return {
    id: w.id, status: (w.stato ?? 'pending') as WalletSummary['status'], selfHosted: w.tipo === 'self_hosted',
    volumeEur: v === null || v === undefined || v === '' ? null : Number(v), proof: walletProof(w.prova ?? null),
  };
}

/**
 * Owners keep the id they were given (documents refer to it); a new owner gets one derived
 * from the edit's idempotency key, so a retried edit assigns the same ids. An id sent twice
 * stays with its first owner only: two owners sharing an id would share one identity
 * document, and each owner's own document would no longer be required.
 */
function withOwnerIds(data: unknown, seed: string): Record<string, unknown>[] {
  const seen = new Set<string>();
  return uboOwners(data).filter((o) => o && typeof o === 'object').map((o, i) => {
    const id = isUuid(o.id) && !seen.has(o.id.toLowerCase()) ? o.id : derivedUuid(`${seed}:ubo:${i}`);
    seen.add(id.toLowerCase());
    return { ...o, id };
  });
}

function sectionUpdate(e: Section, seed: string): Record<string, unknown> {
  const d = (e.data ?? {}) as Record<string, unknown>;
  switch (e.section) {
    case 'subject_type': return { tipo_soggetto: typeof d.subject_type === 'string' && d.subject_type ? d.subject_type : null };
    case 'anagrafe': return { anagrafe: json(d) };
    // Stored as the array of owners (the column's shape); the API shows it as { titolari }.
    case 'ubo': return { ubo: json(withOwnerIds(d, seed)) };
    case 'cdd_answers': {
      const risposte = d.risposte && typeof d.risposte === 'object' ? d.risposte : Object.fromEntries(Object.entries(d).filter(([k]) => k !== 'versione'));
      return { cdd_answers: json(risposte), cdd_schema_version: typeof d.versione === 'string' ? d.versione : null };
    }
    case 'countries': return { countries: json(Array.isArray(d.paesi) ? d.paesi : Array.isArray(e.data) ? e.data : []) };
  }
}

export async function applyEdit(db: Knex, store: DocumentStore, p: OnboardingStep & { edit: OnboardingEdit }): Promise<{ wallet?: WalletSummary; document?: DocumentMeta }> {
  const e = p.edit;
  const now = new Date();
  const touched = { last_edit_at: now, updated_at: now };
  const out = await tx(db, p, async (trx) => {
    const row = await lockCase(trx, p.caseId);
    const update = (fields: Record<string, unknown>) => trx('onboarding_cases').where({ id: p.caseId }).update({ ...fields, ...touched });
    switch (e.kind) {
      case 'section': {
        await update(sectionUpdate(e, p.transitionId));
        let orphans: string[] = [];
        if (e.section === 'ubo') orphans = await dropOrphanDocuments(trx, p.caseId, withOwnerIds(e.data, p.transitionId).map((o) => o.id as string));
        await auditCase(trx, p, 'edit', { kind: 'section', section: e.section, ...(orphans.length ? { documents_removed: orphans.length } : {}) });
        return { blobs: orphans };
      }
      case 'document-add': {
        const d = e.document;
        const ref = d.riferimento || 'soggetto';
        // Checked again under the case's lock: an owner removed since the web checked the upload takes its documents along.
        if (ref !== 'soggetto' && !uboOwners(row.ubo).some((o) => (o as { id?: string })?.id === ref)) {
          throw ApplicationFailure.create({ type: ONBOARDING_FAILURES.conflict, nonRetryable: true, message: `the beneficial owner ${ref} is no longer declared`, details: [{ riferimento: ref }] });
        }
        // The case's share, under its lock: a parallel upload waits here and sees this one (a retry of this one is not counted twice).
        if (!(await trx('onboarding_documents').where({ id: d.id }).first('id'))) {
          const refusal = documentLimitRefusal(await documentLimits(trx, p.codAzienda), await documentUsage(trx, p.caseId), d.dimensione);
          if (refusal) throw ApplicationFailure.create({ type: refusal.code, nonRetryable: true, message: `the case's documents are at their limit (${refusal.code})`, details: [refusal.details] });
        }
        const inserted = await trx('onboarding_documents').insert({
          id: d.id, cod_azienda: p.codAzienda, case_id: p.caseId, tipo: d.tipo, riferimento: d.riferimento || 'soggetto', nome_file: d.nome_file,
          mime: d.mime, dimensione: d.dimensione, sha256: d.sha256, uploaded_by: p.actor.username,
        }).onConflict('id').ignore().returning('id');
        if (inserted.length) {
          await update({});
          await auditCase(trx, p, 'edit', { kind: 'document-add', document_id: d.id, tipo: d.tipo, riferimento: d.riferimento, sha256: d.sha256, dimensione: d.dimensione });
        }
        return { document: d };
      }
      case 'document-delete': {
        const doc = await trx('onboarding_documents').where({ id: e.documentId, case_id: p.caseId }).first();
        if (!doc) return {}; // already deleted (a retry)
        await trx('onboarding_documents').where({ id: doc.id }).delete();
        await update({});
        await auditCase(trx, p, 'edit', { kind: 'document-delete', document_id: doc.id, tipo: doc.tipo, sha256: doc.sha256 });
        return { blobs: [doc.sha256 as string] };
      }
      case 'wallet-add': {
        const w = e.wallet;
        const inserted = await trx('onboarding_wallets').insert({
          id: w.id, cod_azienda: p.codAzienda, case_id: p.caseId, rete: w.rete, indirizzo: w.indirizzo, tipo: w.tipo, vasp_nome: w.vasp_nome ?? null,
          volume_annuo_eur: w.volume_annuo_eur ?? null, prova: w.prova ? json(w.prova) : null, stato: 'pending',
        }).onConflict('id').ignore().returning('id');
        if (inserted.length) {
          await update({});
          await auditCase(trx, p, 'edit', { kind: 'wallet-add', wallet_id: w.id, rete: w.rete, tipo: w.tipo, prova: walletProof(w.prova ?? null) });
        }
        const stored = await trx('onboarding_wallets').where({ id: w.id }).first();
        return { wallet: walletSummary(stored ?? { ...w, stato: 'pending' }) };
      }
      case 'travel-rule-sign':
        await update({ travel_rule: json({ stato: 'signing', dichiarazione: e.declaration, versione: TRAVEL_RULE_VERSION }), travel_rule_ceremony_id: null });
        await auditCase(trx, p, 'edit', { kind: e.kind, versione: TRAVEL_RULE_VERSION });
        return {};
      case 'travel-rule-complete': {
        const tr = (row.travel_rule ?? {}) as Record<string, unknown>;
        if (tr.stato === 'completed') return {};
        const cid = (row.travel_rule_ceremony_id ?? tr.ceremony_id ?? null) as string | null;
        const ceremony = cid ? await trx('esign_ceremonies').where({ id: cid }).first('signed_at') : undefined;
        const signedAt = ceremony?.signed_at ? new Date(ceremony.signed_at) : now;
        await update({ travel_rule: json({ ...tr, stato: 'completed', signed_at: signedAt.toISOString() }) });
        await auditCase(trx, p, 'edit', { kind: e.kind, ceremony_id: cid });
        return {};
      }
      case 'travel-rule-reset':
        await update({ travel_rule: json({ stato: 'none' }), travel_rule_ceremony_id: null });
        await auditCase(trx, p, 'edit', { kind: e.kind });
        return {};
    }
  });
  const { blobs, ...result } = out as { blobs?: string[]; wallet?: WalletSummary; document?: DocumentMeta };
  if (blobs?.length) await removeUnreferencedBlobs(db, store, p.codAzienda, blobs);
  return result;
}

/** Documents of owners no longer declared are personal data with no purpose left: removed. */
async function dropOrphanDocuments(trx: Knex.Transaction, caseId: string, ownerIds: string[]): Promise<string[]> {
  const orphans = await trx('onboarding_documents').where({ case_id: caseId }).whereNot('riferimento', 'soggetto')
    .modify((q) => { if (ownerIds.length) q.whereNotIn('riferimento', ownerIds); }).select('id', 'sha256');
  if (!orphans.length) return [];
  await trx('onboarding_documents').whereIn('id', orphans.map((o: { id: string }) => o.id)).delete();
  return orphans.map((o: { sha256: string }) => o.sha256);
}
