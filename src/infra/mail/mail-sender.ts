import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { MailConfig } from '../../config';

/** One message as it goes on the wire. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** Stable across retries (`<id@domain>`): a receiver can tell a resend after a crash. */
  messageId: string;
}

export interface MailSender {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** Where SMTP goes: the configured relay, else the local development server. */
export function smtpOptions(cfg: MailConfig): string | SMTPTransport.Options {
  const timeouts = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
  if (cfg.smtpUrl) {
    const u = new URL(cfg.smtpUrl);
    return {
      host: u.hostname, port: u.port ? Number(u.port) : undefined, secure: u.protocol === 'smtps:',
      auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined, ...timeouts,
    };
  }
  if (cfg.smtpHost) {
    return {
      host: cfg.smtpHost, port: cfg.smtpPort, secure: cfg.smtpSecure,
      auth: cfg.smtpUser ? { user: cfg.smtpUser, pass: cfg.smtpPassword ?? '' } : undefined, ...timeouts,
    };
  }
  // The development server speaks plain SMTP on loopback.
  return { host: '127.0.0.1', port: cfg.devSmtpPort, secure: false, ignoreTLS: true, ...timeouts };
}

/** True when no relay is configured: `npm start` and the tests run the local server. */
export const usesDevSmtp = (cfg: MailConfig) => !cfg.smtpUrl && !cfg.smtpHost;

/** The domain of the sender's address, for Message-IDs. */
export function senderDomain(from: string): string {
  const m = /@([^>\s]+)>?\s*$/.exec(from);
  return m?.[1] ?? 'localhost';
}

/** A nodemailer SMTP transport. No pool: each message opens its own connection, so a relay that comes back is used at once. */
export function createMailSender(cfg: MailConfig): MailSender {
  const transport = nodemailer.createTransport(smtpOptions(cfg));
  return {
    async send(mail) {
      await transport.sendMail({ from: cfg.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? undefined, messageId: mail.messageId });
    },
    close: () => transport.close(),
  };
}

/**
 * A refusal that no retry will change: the relay rejected the recipient or the content with
 * a 5xx reply. Connection failures, timeouts, 4xx replies and authentication failures are
 * worth retrying (the relay may come back or be fixed).
 */
export function isPermanentSmtpFailure(err: unknown): boolean {
  const e = err as { code?: string; responseCode?: number; command?: string };
  if (e?.code === 'EENVELOPE' && typeof e.responseCode === 'number') return e.responseCode >= 500;
  if (typeof e?.responseCode !== 'number' || e.responseCode < 500) return false;
  return !/^(AUTH|CONN|EHLO|HELO|STARTTLS)/i.test(e.command ?? '');
}
