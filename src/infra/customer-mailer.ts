import type { Logger } from './logger';

/** A message to an applicant, who has no account and so no in-app notifications. */
export interface CustomerMessage {
  codAzienda: string;
  caseId: string;
  to: string;
  oggetto: string;
  testo: string;
  /** The link the message carries (resume link), if any. */
  link?: string;
  kind: 'resume' | 'info_request' | 'reminder' | 'outcome';
}

export interface CustomerMailer { send(msg: CustomerMessage): Promise<void> }

const outbox: CustomerMessage[] = [];

/**
 * Development and test channel: the message, link included, goes to the log at info
 * level (as the e-sign OTP does). A deployment plugs an e-mail channel in here; this one
 * must not be used in production. Under NODE_ENV=test the messages are also kept in
 * memory so tests can follow a link the way the applicant would.
 */
export const logCustomerMailer = (logger: Logger): CustomerMailer => ({
  async send(msg) {
    logger.info({ codAzienda: msg.codAzienda, caseId: msg.caseId, to: msg.to, kind: msg.kind, link: msg.link }, `Message to applicant: ${msg.oggetto}${msg.link ? ` ${msg.link}` : ''}`);
    if (process.env.NODE_ENV === 'test') outbox.push(msg);
  },
});

/** Test only: the messages sent so far in this process. */
export const sentCustomerMessages = (): readonly CustomerMessage[] => outbox;
