import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { withPlatform, withTenant } from '../../src/db/tenant';
import { startDeliveries } from '../../src/domains/outbox/outbox.dispatch';
import { isPermanentSmtpFailure } from '../../src/infra/mail/mail-sender';
import { SMTP_REJECTED, SWEEP_AFTER_SECONDS, type DeliveryOutcome, type MessageDeliveryInput } from '../../workflows/outbox/outbox.contract';
import type { ActivityDeps } from '../deps';
import type { Messaging } from './messaging';

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);
const SWEEP_BATCH = 500;

/** How long an attempt holds its message: longer than the SMTP client's timeouts, as long as the activity's. */
const CLAIM_MS = 2 * 60_000;

/**
 * Delivery of the outbox. An attempt first claims the message in a short transaction (a
 * second attempt meanwhile is told to retry later), sends without holding a database
 * connection, then marks it sent; a message marked sent is never sent again. A crash after
 * the relay accepted but before the mark means one resend with the same Message-ID.
 */
export function createOutboxActivities({ db, platformDb }: ActivityDeps, m: Messaging) {
  const inTenant = <T>(codAzienda: string, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(db, { codAzienda, actor: 'system' }, fn);
  return {
    async deliverOutboxMessage(p: MessageDeliveryInput): Promise<DeliveryOutcome> {
      type Claim = { done: 'skipped' } | { busy: true } | { row: Record<string, any> };
      const claim = await inTenant(p.codAzienda, async (trx): Promise<Claim> => {
        const row = await trx('outbox_messages').where({ id: p.messageId }).forUpdate().first();
        if (!row || row.status !== 'pending') return { done: 'skipped' };
        const now = new Date();
        if (row.claimed_until && new Date(row.claimed_until) > now) return { busy: true };
        await trx('outbox_messages').where({ id: p.messageId })
          .update({ claimed_until: new Date(now.getTime() + CLAIM_MS), attempts: row.attempts + 1, last_attempt_at: now, updated_at: now });
        return { row };
      });
      if ('done' in claim) return claim.done;
      if ('busy' in claim) throw ApplicationFailure.create({ type: 'DELIVERY_IN_PROGRESS', message: 'another attempt is sending this message' });
      const { row } = claim;
      try {
        const body = m.outbox.open(row.body_sealed);
        await m.mail().send({ to: row.recipient, subject: row.subject, text: body.text, html: body.html, messageId: row.message_id });
      } catch (err) {
        await inTenant(p.codAzienda, (trx) => trx('outbox_messages').where({ id: p.messageId })
          .update({ last_error: errorText(err), claimed_until: null, updated_at: new Date() }));
        const permanent = isPermanentSmtpFailure(err);
        throw ApplicationFailure.create({ type: permanent ? SMTP_REJECTED : 'SMTP_FAILED', message: errorText(err), nonRetryable: permanent });
      }
      await inTenant(p.codAzienda, (trx) => trx('outbox_messages').where({ id: p.messageId })
        .update({ status: 'sent', sent_at: new Date(), claimed_until: null, updated_at: new Date() }));
      return 'sent';
    },

    /** The retries ran out (or the relay refused for good): the message stays visible as failed. */
    async markOutboxMessageFailed(p: MessageDeliveryInput & { error: string }): Promise<void> {
      await withTenant(db, { codAzienda: p.codAzienda, actor: 'system' }, async (trx) => {
        const now = new Date();
        await trx('outbox_messages').where({ id: p.messageId, status: 'pending' })
          .update({ status: 'failed', failed_at: now, last_error: p.error.slice(0, 1000), claimed_until: null, updated_at: now });
      });
    },

    /** Starts a delivery for pending messages nobody touched for a minute (their start was lost). */
    async sweepOutbox(): Promise<{ started: number }> {
      // Platform-wide by nature: the sweep serves every tenant's outbox.
      const stale = await withPlatform(platformDb, 'system', (trx) => trx('outbox_messages')
        .where({ status: 'pending' }).where('updated_at', '<', trx.raw(`now() - interval '${SWEEP_AFTER_SECONDS} seconds'`))
        .orderBy('updated_at').limit(SWEEP_BATCH).select('id', 'cod_azienda')) as { id: string; cod_azienda: string }[];
      const ctx = Context.current();
      await startDeliveries(ctx.client, ctx.info.taskQueue, stale.map((s) => ({ id: s.id, codAzienda: s.cod_azienda })));
      return { started: stale.length };
    },
  };
}
