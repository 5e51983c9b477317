import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import { withTenant } from '../../src/db/tenant';
import { appendAudit, type AuditActionOf } from '../../src/domains/audit';
import { signEvidence, type EsignEvidence } from '../../src/domains/esign/esign.bundle';
import type { EsignActivities, EsignCreation, EsignOtpCheck, EsignOtpSend, EsignStep } from '../../workflows/esign/esign.contract';
import type { EsignStatus } from '../../workflows/esign/esign.machine';
import type { ActivityDeps } from '../deps';
import { messaging, type Messaging } from '../../src/domains/outbox';
import { otpMessage } from './otp-message';

const notFound = (id: string) => ApplicationFailure.create({ type: 'ESIGN_NOT_FOUND', message: `ceremony ${id} not found`, nonRetryable: true });
export const otpHash = (code: string, ceremonyId: string) => createHash('sha256').update(`${code}:${ceremonyId}`).digest('hex');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/**
 * The ceremony workflow's side effects: every write to esign_ceremonies with its audit
 * event in the same transaction; the code is generated, hashed and checked here so it
 * never enters workflow history.
 */
export function createEsignActivities(deps: ActivityDeps, m: Messaging = messaging(deps)): EsignActivities {
  const { db } = deps;
  const tx = <T>(p: { codAzienda: string; actor: { username: string } }, fn: (trx: Knex.Transaction) => Promise<T>) =>
    withTenant(db, { codAzienda: p.codAzienda, actor: p.actor.username }, fn);
  const lockRow = async (trx: Knex.Transaction, id: string) => {
    const row = await trx('esign_ceremonies').where({ id }).forUpdate().first();
    if (!row) throw notFound(id);
    return row;
  };
  // The audit trail is append-only and outlives a GDPR erasure: it keeps ids and hashes; the
  // signer's address, IP and user agent live on the ceremony row and in the signed bundle.
  const audit = (trx: Knex.Transaction, p: EsignStep, action: AuditActionOf<'esign'>, data: Record<string, unknown>) =>
    appendAudit(trx, { codAzienda: p.codAzienda, actor: p.actor.username, action: `esign.${action}`, entityType: 'esign_ceremony', entityId: p.ceremonyId, data: { transition_id: p.transitionId, ...data } });

  const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
  const queueCode = (trx: Knex.Transaction, p: EsignStep, row: Record<string, any>, code: string, send: number) =>
    m.outbox.enqueue(trx, {
      codAzienda: p.codAzienda, kind: 'otp', to: row.signer_email, ...otpMessage({ nome: row.signer_nome, documento: row.document_name, code }),
      entity: { type: 'esign_ceremony', id: p.ceremonyId }, dedupKey: `esign-otp:${p.ceremonyId}:${send}`,
    });

  return {
    async createEsignProjection(p: EsignCreation): Promise<void> {
      await tx(p, async (trx) => {
        const d = p.data;
        const inserted = await trx('esign_ceremonies').insert({
          id: p.ceremonyId, cod_azienda: p.codAzienda, stato: 'started', signer_nome: d.signer.nome, signer_email: d.signer.email,
          document_name: d.document.nome, document_content: Buffer.from(d.document.contenuto_base64, 'base64'),
          consent_text: d.consent.testo, consent_version: d.consent.versione, token_hash: d.tokenHash,
          parent_workflow_id: d.parentWorkflowId ?? null, created_by: p.actor.username, expires_at: new Date(p.expiresAt), workflow_id: p.workflowId,
        }).onConflict('id').ignore().returning('id');
        if (!inserted.length) return;
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: 'esign.start', entityType: 'esign_ceremony', entityId: p.ceremonyId,
          data: { to: 'started', document: d.document.nome, expires_at: p.expiresAt, workflow_id: p.workflowId, parent_workflow_id: d.parentWorkflowId ?? null },
        });
      });
    },

    async acceptEsignTerms(p: EsignStep): Promise<void> {
      await tx(p, async (trx) => {
        const row = await lockRow(trx, p.ceremonyId);
        if (row.stato !== 'started') return; // a retry after the write
        await trx('esign_ceremonies').where({ id: p.ceremonyId }).update({
          stato: 'terms_accepted', terms_accepted_at: new Date(), ip: p.client?.ip ?? null, user_agent: p.client?.userAgent ?? null, updated_at: new Date(),
        });
        await audit(trx, p, 'terms', { from: 'started', to: 'terms_accepted', consent_version: row.consent_version });
      });
    },

    /**
     * Fixes the document hash and issues the first one-time code: its hash and the message
     * that carries it are written in one transaction, so a code exists only with its message.
     */
    async presentEsignDocument(p: EsignStep): Promise<{ documentSha256: string }> {
      const r = await tx(p, async (trx) => {
        const row = await lockRow(trx, p.ceremonyId);
        if (row.stato !== 'terms_accepted') return { documentSha256: row.document_sha256 as string, queued: null };
        const documentSha256 = sha256(row.document_content);
        const code = newCode();
        await trx('esign_ceremonies').where({ id: p.ceremonyId }).update({
          stato: 'presented', document_sha256: documentSha256, presented_at: new Date(), otp_hash: otpHash(code, p.ceremonyId),
          otp_sent_at: new Date(), otp_sends: 1, otp_attempts: 0, updated_at: new Date(),
        });
        await audit(trx, p, 'present', { from: 'terms_accepted', to: 'presented', document_sha256: documentSha256, otp_sent: true });
        return { documentSha256, queued: await queueCode(trx, p, row, code, 1) };
      });
      await m.dispatch(r.queued ? [r.queued] : []);
      return { documentSha256: r.documentSha256 };
    },

    /**
     * A new code at the signer's request (the workflow enforces the limits). The old code
     * stops working: the new hash replaces it. `send` is the workflow's count, so a retry
     * after the commit issues nothing more.
     */
    async resendEsignCode(p: EsignOtpSend): Promise<void> {
      const queued = await tx(p, async (trx) => {
        const row = await lockRow(trx, p.ceremonyId);
        if (row.stato !== 'presented' || row.otp_sends >= p.send) return null;
        const code = newCode();
        await trx('esign_ceremonies').where({ id: p.ceremonyId }).update({
          otp_hash: otpHash(code, p.ceremonyId), otp_sent_at: new Date(), otp_sends: p.send, updated_at: new Date(),
        });
        await audit(trx, p, 'otp-resent', { send: p.send });
        return queueCode(trx, p, row, code, p.send);
      });
      await m.dispatch(queued ? [queued] : []);
    },

    /** Compares hashes in constant time and records the attempt; the workflow counts the failures. */
    async checkEsignOtp(p: EsignOtpCheck): Promise<boolean> {
      return tx(p, async (trx) => {
        const row = await lockRow(trx, p.ceremonyId);
        if (!row.otp_hash) return false;
        const ok = /^\d{6}$/.test(p.otp) && timingSafeEqual(Buffer.from(otpHash(p.otp, p.ceremonyId)), Buffer.from(row.otp_hash));
        if (!ok) {
          await trx('esign_ceremonies').where({ id: p.ceremonyId }).update({ otp_attempts: p.attempt, updated_at: new Date() });
          await audit(trx, p, 'otp-failed', { attempt: p.attempt });
        }
        return ok;
      });
    },

    /** Builds the evidence, signs it with the platform key and stores the bundle. */
    async completeEsignSignature(p: EsignStep): Promise<{ documentSha256: string; signedAt: string }> {
      return tx(p, async (trx) => {
        const row = await lockRow(trx, p.ceremonyId);
        if (row.stato === 'signed') return { documentSha256: row.document_sha256, signedAt: iso(row.signed_at)! };
        const signedAt = new Date();
        const evidence: EsignEvidence = {
          ceremony_id: row.id, cod_azienda: row.cod_azienda,
          document: { nome: row.document_name, sha256: row.document_sha256 },
          signer: { nome: row.signer_nome, email: row.signer_email },
          consent: { testo: row.consent_text, versione: row.consent_version },
          timestamps: { started_at: iso(row.created_at)!, terms_accepted_at: iso(row.terms_accepted_at), presented_at: iso(row.presented_at), signed_at: signedAt.toISOString() },
          client: { ip: p.client?.ip ?? '', user_agent: p.client?.userAgent ?? '' },
          otp_event: { id: p.transitionId, sent_at: iso(row.otp_sent_at), verified_at: signedAt.toISOString() },
        };
        const bundle = await signEvidence(evidence);
        await trx('esign_ceremonies').where({ id: p.ceremonyId }).update({
          stato: 'signed', signed_at: signedAt, bundle: JSON.stringify(bundle), otp_hash: null,
          ip: p.client?.ip ?? row.ip, user_agent: p.client?.userAgent ?? row.user_agent, updated_at: signedAt,
        });
        await audit(trx, p, 'sign', { from: 'presented', to: 'signed', document_sha256: row.document_sha256 });
        return { documentSha256: row.document_sha256, signedAt: signedAt.toISOString() };
      });
    },

    /** Timer (expired), too many wrong codes (locked) or its workflow cancelled: the ceremony ends unsigned. */
    async endEsignCeremony(p: EsignStep & { to: Extract<EsignStatus, 'expired' | 'locked' | 'cancelled'>; from: EsignStatus }): Promise<void> {
      await tx(p, async (trx) => {
        const row = await lockRow(trx, p.ceremonyId);
        if (row.stato === p.to) return;
        await trx('esign_ceremonies').where({ id: p.ceremonyId }).update({ stato: p.to, otp_hash: null, updated_at: new Date() });
        await audit(trx, p, ({ expired: 'expire', locked: 'lock', cancelled: 'cancel' } as const)[p.to], { from: row.stato, to: p.to });
      });
    },
  };
}
