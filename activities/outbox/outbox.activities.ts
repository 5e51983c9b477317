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

/**
 * Delivery of the outbox. The row stays locked while the relay takes the message, so two
 * attempts can never both send it; a message marked sent is never sent again. A crash
 * after the relay accepted but before the commit means one resend with the same Message-ID.
 */
export function createOutboxActivities({ db }: ActivityDeps, m: Messaging) {
  return {
    async deliverOutboxMessage(p: MessageDeliveryInput): Promise<DeliveryOutcome> {
      type Attempt = { done: DeliveryOutcome } | { error: unknown };
      const r = await withTenant(db, { codAzienda: p.codAzienda, actor: 'system' }, async (trx): Promise<Attempt> => {
        const row = await trx('outbox_messages').where({ id: p.messageId }).forUpdate().first();
        if (!row || row.status !== 'pending') return { done: 'skipped' };
        const now = new Date();
        const attempt = { attempts: row.attempts + 1, last_attempt_at: now, updated_at: now };
        try {
          const body = m.outbox.open(row.body_sealed);
          await m.mail().send({ to: row.recipient, subject: row.subject, text: body.text, html: body.html, messageId: row.message_id });
        } catch (err) {
          await trx('outbox_messages').where({ id: p.messageId }).update({ ...attempt, last_error: errorText(err) });
          return { error: err };
        }
        await trx('outbox_messages').where({ id: p.messageId }).update({ ...attempt, status: 'sent', sent_at: now });
        return { done: 'sent' };
      });
      if ('done' in r) return r.done;
      const permanent = isPermanentSmtpFailure(r.error);
      throw ApplicationFailure.create({ type: permanent ? SMTP_REJECTED : 'SMTP_FAILED', message: errorText(r.error), nonRetryable: permanent });
    },

    /** The retries ran out (or the relay refused for good): the message stays visible as failed. */
    async markOutboxMessageFailed(p: MessageDeliveryInput & { error: string }): Promise<void> {
      await withTenant(db, { codAzienda: p.codAzienda, actor: 'system' }, async (trx) => {
        const now = new Date();
        await trx('outbox_messages').where({ id: p.messageId, status: 'pending' })
          .update({ status: 'failed', failed_at: now, last_error: p.error.slice(0, 1000), updated_at: now });
      });
    },

    /** Starts a delivery for pending messages nobody touched for a minute (their start was lost). */
    async sweepOutbox(): Promise<{ started: number }> {
      // Platform-wide by nature: the sweep serves every tenant's outbox.
      const stale = await withPlatform(db, 'system', (trx) => trx('outbox_messages')
        .where({ status: 'pending' }).where('updated_at', '<', trx.raw(`now() - interval '${SWEEP_AFTER_SECONDS} seconds'`))
        .orderBy('updated_at').limit(SWEEP_BATCH).select('id', 'cod_azienda')) as { id: string; cod_azienda: string }[];
      const ctx = Context.current();
      await startDeliveries(ctx.client, ctx.info.taskQueue, stale.map((s) => ({ id: s.id, codAzienda: s.cod_azienda })));
      return { started: stale.length };
    },
  };
}
