import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { senderDomain } from '../../infra/mail/mail-sender';
import { SecretBox } from '../../lib/secret-box';

/** What a message is about; the operators' page filters by it. */
export const MESSAGE_KINDS = ['otp', 'resume', 'info_request', 'reminder', 'outcome', 'notification'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export interface NewMessage {
  codAzienda: string;
  kind: MessageKind;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  entity?: { type: string; id: string } | null;
  /** The cause: the same key in the same tenant queues one message, however often the cause is replayed. */
  dedupKey: string;
}

/** A message written to the outbox, to hand to the delivery after the commit. */
export interface QueuedMessage { id: string; codAzienda: string }

/**
 * Writes messages in the caller's transaction: the message exists if and only if the change
 * that caused it committed. Built once per process from the installation's settings.
 */
export interface Outbox {
  enqueue(trx: Knex.Transaction, msg: NewMessage): Promise<QueuedMessage | null>;
  /** Absolute link to a page of the platform, for the text of a message. */
  url(path: string): string;
  open(sealed: string): { text: string; html: string | null };
}

export function createOutbox(cfg: { secretBoxKey: string; publicBaseUrl: string; mail: { from: string } }): Outbox {
  const box = new SecretBox(cfg.secretBoxKey);
  const domain = senderDomain(cfg.mail.from);
  return {
    async enqueue(trx, msg) {
      const id = randomUUID();
      const inserted = await trx('outbox_messages').insert({
        id, cod_azienda: msg.codAzienda, kind: msg.kind, recipient: msg.to.trim(), subject: msg.subject,
        // The body may carry a one-time code or a bearer link: sealed at rest like TOTP seeds.
        body_sealed: box.seal(JSON.stringify({ text: msg.text, html: msg.html ?? null })),
        entity_type: msg.entity?.type ?? null, entity_id: msg.entity?.id ?? null, dedup_key: msg.dedupKey,
        message_id: `<${id}@${domain}>`,
      }).onConflict(['cod_azienda', 'dedup_key']).ignore().returning('id');
      return inserted.length ? { id, codAzienda: msg.codAzienda } : null;
    },
    url: (path) => `${cfg.publicBaseUrl}${path.startsWith('/') ? path : `/${path}`}`,
    open(sealed) {
      const body = JSON.parse(box.open(sealed)) as { text: string; html: string | null };
      return { text: body.text, html: body.html ?? null };
    },
  };
}

export const queued = (items: (QueuedMessage | null | undefined)[]): QueuedMessage[] => items.filter((m): m is QueuedMessage => !!m);
