import { getSetting } from '../../src/domains/admin';
import { appendAudit } from '../../src/domains/audit';
import { notify } from '../../src/domains/notifications';
import { DocumentStore } from '../../src/domains/onboarding/document-store';
import { infoLinkMessage, outcomeMessage, queueCustomerMessage } from '../../src/domains/onboarding/onboarding.messages';
import { signerName, signingDocument } from '../../src/domains/onboarding/onboarding.signing-document';
import { onboardingEsignToken, resumeUrl, sha256Hex, signMagicLink } from '../../src/domains/onboarding/onboarding.tokens';
import { validateApplication, type ApplicationData } from '../../src/domains/onboarding/onboarding.validation';
import type {
  DocumentMeta, OnboardingCeremonyOutcome, OnboardingEdit, OnboardingNewData, OnboardingStep, RiskResult, SigningDocument, ValidationIssue, WalletSummary,
} from '../../workflows/onboarding/onboarding.contract';
import type { OnboardingAction, OnboardingStatus, WalletStatus } from '../../workflows/onboarding/onboarding.machine';
import type { ActivityDeps } from '../deps';
import { messaging, type Messaging } from '../../src/domains/outbox';
import { recordCeremonyOutcome } from './onboarding-ceremony';
import { applyEdit } from './onboarding-edit';
import { eraseCase } from './onboarding-erase';
import { materialiseCustomer, type Materialised } from './onboarding-materialise';
import { screenCaseSubjects, screenCaseWallets, scoreCaseRisk } from './onboarding-screening';
import { auditCase, derivedUuid, json, lockCase, notFound, tx } from './onboarding.tx';

/** Row fields each transition sets besides the status (the reviewer's page and the lists read them). */
function transitionFields(action: string, p: OnboardingStep, row: Record<string, unknown>, extra: Record<string, unknown>, now: Date): Record<string, unknown> {
  switch (action) {
    case 'submit': {
      const n = typeof extra.submission === 'number' ? extra.submission : Number(row.submissions ?? 0) + 1;
      return { submitted_at: now, submissions: n };
    }
    case 'request-info': return { info_request_message: typeof extra.message === 'string' ? extra.message : null, info_requested_at: now };
    case 'approve': return { approved_by: p.actor.id, approved_by_username: p.actor.username, approved_at: now };
    case 'complete-approval': return { second_approver_username: p.actor.username, decided_at: now };
    case 'reject': return { rejection_reason: typeof extra.reason === 'string' ? extra.reason : null, decided_at: now };
    case 'expire': return { expired_at: now };
    default: return {};
  }
}

/**
 * The onboarding workflow's side effects. Every write runs in a tenant transaction with
 * its audit event; each activity checks the row's current state first, so a retry after
 * a committed write changes nothing. Personal data stays out of the audit trail.
 */
export function createOnboardingActivities(deps: ActivityDeps, m: Messaging = messaging(deps)) {
  const { db, config } = deps;
  const store = new DocumentStore(config.documentDir);

  return {
    async createOnboardingProjection(p: OnboardingStep & { data: OnboardingNewData; workflowId: string }): Promise<void> {
      await tx(db, p, async (trx) => {
        const inserted = await trx('onboarding_cases').insert({
          id: p.caseId, cod_azienda: p.codAzienda, stato: 'draft', email: p.data.email, canale: p.data.canale, tipo_soggetto: p.data.subjectType ?? null,
          ubo: json([]), countries: json([]), travel_rule: json({ stato: 'none' }), workflow_id: p.workflowId,
        }).onConflict('id').ignore().returning('id');
        if (!inserted.length) return;
        await auditCase(trx, p, 'create', { to: 'draft', canale: p.data.canale, tipo_soggetto: p.data.subjectType ?? null, workflow_id: p.workflowId });
      });
    },

    async applyOnboardingEdit(p: OnboardingStep & { edit: OnboardingEdit }): Promise<{ wallet?: WalletSummary; document?: DocumentMeta }> {
      return applyEdit(db, store, p);
    },

    async validateOnboarding(p: OnboardingStep): Promise<{ ok: boolean; issues: ValidationIssue[] }> {
      return tx(db, p, async (trx) => {
        const row = await lockCase(trx, p.caseId);
        // One connection per transaction: the queries run one after the other.
        const documents = await trx('onboarding_documents').where({ case_id: p.caseId }).select('tipo', 'riferimento');
        const wallets = await trx('onboarding_wallets').where({ case_id: p.caseId }).whereNot('stato', 'revoked').select('id', 'tipo', 'volume_annuo_eur', 'prova');
        const data: ApplicationData = {
          tipo_soggetto: row.tipo_soggetto, anagrafe: row.anagrafe, ubo: row.ubo, cdd_answers: row.cdd_answers, cdd_schema_version: row.cdd_schema_version,
          countries: row.countries, travel_rule: row.travel_rule, documents, wallets,
        };
        const result = validateApplication(data);
        await trx('onboarding_cases').where({ id: p.caseId }).update({ validation: json({ ...result, checked_at: new Date().toISOString() }), updated_at: new Date() });
        await auditCase(trx, p, 'validate', { ok: result.ok, issues: result.issues.length });
        return result;
      });
    },

    async screenOnboardingSubjects(p: OnboardingStep): Promise<{ matches: number; pep: boolean }> {
      return screenCaseSubjects(db, p);
    },

    async screenOnboardingWallets(p: OnboardingStep): Promise<{ hits: number }> {
      return screenCaseWallets(db, p);
    },

    async scoreOnboardingRisk(p: OnboardingStep): Promise<RiskResult> {
      return scoreCaseRisk(db, p);
    },

    async recordOnboardingTransition(p: OnboardingStep & { action: OnboardingAction; from: OnboardingStatus; to: OnboardingStatus; extra: Record<string, unknown> }): Promise<void> {
      await tx(db, p, async (trx) => {
        const row = await lockCase(trx, p.caseId);
        if (row.stato === p.to) return;
        const now = new Date();
        const fields = transitionFields(p.action, p, row, p.extra, now);
        // A direct approval (no second approval needed) is also the decision.
        if (p.action === 'approve' && p.to === 'approved') fields.decided_at = now;
        await trx('onboarding_cases').where({ id: p.caseId }).update({ stato: p.to, ...fields, updated_at: now });
        await auditCase(trx, p, p.action, { from: row.stato, to: p.to, ...p.extra });
      });
    },

    async prepareOnboardingSigning(p: OnboardingStep & { purpose: 'dichiarazioni' | 'travel_rule' }): Promise<SigningDocument> {
      // Derived from the step's key: a retry prepares the same ceremony.
      const ceremonyId = derivedUuid(`${p.transitionId}:ceremony:${p.purpose}`);
      return tx(db, p, async (trx) => {
        const row = await lockCase(trx, p.caseId);
        const documents = await trx('onboarding_documents').where({ case_id: p.caseId }).orderBy([{ column: 'created_at' }, { column: 'id' }]).select('tipo', 'riferimento', 'nome_file', 'sha256');
        const wallets = await trx('onboarding_wallets').where({ case_id: p.caseId }).whereNot('stato', 'revoked').orderBy([{ column: 'created_at' }, { column: 'id' }]);
        const azienda = await trx('aziende').where({ cod_azienda: p.codAzienda }).first('ragione_sociale');
        const travelRule = (row.travel_rule ?? {}) as Record<string, unknown>;
        const doc = await signingDocument(p.purpose, {
          caseId: p.caseId, codAzienda: p.codAzienda, ragioneSociale: azienda?.ragione_sociale ?? p.codAzienda, tipoSoggetto: row.tipo_soggetto,
          email: row.email ?? '', anagrafe: row.anagrafe ?? {}, ubo: row.ubo, cddVersion: row.cdd_schema_version, cddAnswers: row.cdd_answers,
          countries: row.countries, travelRule, documents, wallets, generatedAt: new Date(),
        });
        if (p.purpose === 'dichiarazioni') {
          await trx('onboarding_cases').where({ id: p.caseId }).update({ declarations_ceremony_id: ceremonyId, declarations_stato: 'active', updated_at: new Date() });
        } else {
          await trx('onboarding_cases').where({ id: p.caseId }).update({
            travel_rule_ceremony_id: ceremonyId, travel_rule: json({ ...travelRule, ceremony_id: ceremonyId }), updated_at: new Date(),
          });
        }
        await auditCase(trx, p, 'signing', { purpose: p.purpose, ceremony_id: ceremonyId, document: doc.nome, consent_version: doc.consent.versione });
        return {
          ceremonyId,
          signer: { nome: signerName(row.tipo_soggetto, row.anagrafe ?? {}), email: row.email ?? '' },
          document: { nome: doc.nome, contenuto_base64: doc.pdf.toString('base64') },
          consent: doc.consent,
          tokenHash: sha256Hex(onboardingEsignToken(config.sessionSecret, ceremonyId)),
        };
      });
    },

    /** How one of the case's ceremonies ended, as its signal told the workflow: the pages read it from the row. */
    async recordOnboardingCeremony(p: OnboardingCeremonyOutcome): Promise<void> {
      await recordCeremonyOutcome(db, p);
    },

    /** A resume link and its message, in one transaction; the step's key makes a retry send nothing more. */
    async sendOnboardingLink(p: OnboardingStep & { purpose: 'info_request' | 'reminder' }): Promise<void> {
      const queued = await tx(db, p, async (trx) => {
        const row = await lockCase(trx, p.caseId);
        if (!row.email) return null; // erased: nobody to write to
        const dedupKey = `onboarding-link:${p.caseId}:${p.purpose}:${p.transitionId}`;
        if (await trx('outbox_messages').where({ cod_azienda: p.codAzienda, dedup_key: dedupKey }).first('id')) return null;
        const ttlHours = Number(await getSetting(trx, 'onboarding.link_ttl_hours', p.codAzienda));
        const link = await signMagicLink(config.sessionSecret, { caseId: p.caseId, codAzienda: p.codAzienda, purpose: p.purpose, ttlHours });
        await trx('onboarding_links').insert({ jti: link.jti, cod_azienda: p.codAzienda, case_id: p.caseId, purpose: p.purpose, expires_at: link.expiresAt });
        await auditCase(trx, p, 'link', { purpose: p.purpose, expires_at: link.expiresAt.toISOString() });
        const text = infoLinkMessage({ purpose: p.purpose, link: resumeUrl(config.publicBaseUrl, link.token), expiresAt: link.expiresAt, message: row.info_request_message ?? null });
        return queueCustomerMessage(m.outbox, trx, { codAzienda: p.codAzienda, caseId: p.caseId, to: row.email, kind: p.purpose, ...text, dedupKey });
      });
      await m.dispatch(queued ? [queued] : []);
    },

    /**
     * Tells the applicant the decision, and nothing more: a refusal may follow a suspicion,
     * and disclosing its reason would be tipping-off (art. 39 d.lgs. 231/2007). The message
     * and the "outcome sent" mark commit together.
     */
    async sendOnboardingOutcome(p: OnboardingStep & { outcome: 'approved' | 'rejected' }): Promise<void> {
      const queued = await tx(db, p, async (trx) => {
        const row = await lockCase(trx, p.caseId);
        if (!row.email) return null;
        const already = await trx('audit_events').where({ cod_azienda: p.codAzienda, entity_id: p.caseId, action: 'onboarding.outcome-sent' }).first('seq');
        if (already) return null; // a retry after the commit
        await auditCase(trx, p, 'outcome-sent', { outcome: p.outcome });
        return queueCustomerMessage(m.outbox, trx, {
          codAzienda: p.codAzienda, caseId: p.caseId, to: row.email, kind: 'outcome', ...outcomeMessage(p.outcome), dedupKey: `onboarding-outcome:${p.caseId}`,
        });
      });
      await m.dispatch(queued ? [queued] : []);
    },

    async notifyOnboardingReviewers(p: OnboardingStep & { event: 'in_review' | 'pending_second_approval' }): Promise<void> {
      const r = await tx(db, p, async (trx) => {
        const row = await lockCase(trx, p.caseId);
        const a = (row.anagrafe ?? {}) as Record<string, unknown>;
        const nome = (typeof a.denominazione === 'string' && a.denominazione) || [a.nome, a.cognome].filter(Boolean).join(' ') || 'cliente';
        const second = p.event === 'pending_second_approval';
        return notify(trx, {
          codAzienda: p.codAzienda,
          // Only a compliance officer can give the second approval.
          role: second ? ['co'] : ['co', 'analyst'],
          tipo: second ? 'onboarding_second_approval' : 'onboarding_in_review',
          titolo: second ? `Onboarding da approvare in seconda istanza: ${nome}` : `Nuova pratica di onboarding da esaminare: ${nome}`,
          messaggio: second
            ? `Prima approvazione di ${p.actor.username}; rischio ${row.risk_classe ?? '—'}. Serve l'approvazione di un altro compliance officer.`
            : `Pratica inviata e firmata; rischio ${row.risk_classe ?? '—'} (punteggio ${row.risk_score ?? '—'}).`,
          link: `/admin/onboarding/cases/${p.caseId}`,
          entity: { type: 'onboarding_case', id: p.caseId },
          dedupKey: `onboarding:${p.caseId}:${p.event}:${p.transitionId}`,
        }, m.outbox);
      });
      await m.dispatch(r.messages);
    },

    async recordWalletTransition(p: OnboardingStep & { walletId: string; action: 'verify' | 'revoke'; from: WalletStatus; to: WalletStatus; reason: string | null }): Promise<void> {
      await tx(db, p, async (trx) => {
        await lockCase(trx, p.caseId);
        const w = await trx('onboarding_wallets').where({ id: p.walletId, case_id: p.caseId }).forUpdate().first();
        if (!w) throw notFound(`wallet ${p.walletId}`);
        if (w.stato === p.to) return;
        const now = new Date();
        const fields = p.action === 'verify'
          ? { verified_by: p.actor.username, verified_at: now }
          : { revoked_by: p.actor.username, revoked_at: now, revoke_reason: p.reason };
        await trx('onboarding_wallets').where({ id: p.walletId }).update({ stato: p.to, ...fields, updated_at: now });
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: `onboarding.wallet.${p.action}`, entityType: 'onboarding_wallet', entityId: p.walletId,
          data: { transition_id: p.transitionId, case_id: p.caseId, from: w.stato, to: p.to, ...(p.reason ? { reason: p.reason } : {}) },
        });
      });
    },

    async materialiseOnboardingCustomer(p: OnboardingStep & { firstApprover: string | null }): Promise<Materialised> {
      return materialiseCustomer(db, p);
    },

    async eraseOnboardingCase(p: OnboardingStep): Promise<void> {
      await eraseCase(db, store, p);
    },

    /** An idle draft that expired: its personal data go, the blank row stays as the trace. */
    async purgeExpiredDraft(p: OnboardingStep): Promise<void> {
      await eraseCase(db, store, p, 'expired');
    },
  };
}
