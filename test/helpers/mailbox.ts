import type { ReceivedMail } from '../../src/infra/mail/dev-mail-server';

export type { ReceivedMail };

/** The six-digit one-time code a message carries. */
export function otpIn(m: ReceivedMail): string {
  const code = /^\s*(\d{6})\s*$/m.exec(m.text)?.[1];
  if (!code) throw new Error(`no one-time code in "${m.subject}"`);
  return code;
}

/** The first link a message carries (a resume link, a page of the platform). */
export function linkIn(m: ReceivedMail): string {
  const url = /https?:\/\/\S+/.exec(m.text)?.[0];
  if (!url) throw new Error(`no link in "${m.subject}"`);
  return url;
}

/** A code that is certainly not `code` (a wrong guess that cannot be right by chance). */
export const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/**
 * What a person would read: messages as they reached the local SMTP server, through its
 * web inbox's JSON API. Tests never read codes or links from the database or the log.
 */
export class Mailbox {
  constructor(readonly webUrl: string) {}

  /** Messages to an address (any, when omitted), oldest first, after a cursor. */
  async list(to?: string, after = 0): Promise<ReceivedMail[]> {
    const q = new URLSearchParams({ after: String(after) });
    if (to) q.set('to', to.toLowerCase());
    const r = await fetch(`${this.webUrl}/api/messages?${q}`);
    if (!r.ok) throw new Error(`inbox answered ${r.status}`);
    return (await r.json()) as ReceivedMail[];
  }

  /** The newest message's number: pass it as `after` to wait for what comes next. */
  async cursor(): Promise<number> {
    return (await this.list()).at(-1)?.seq ?? 0;
  }

  /** Waits for the first message to `to` after the cursor whose subject matches. */
  async waitFor(to: string, opts: { subject?: RegExp; after?: number; timeoutMs?: number } = {}): Promise<ReceivedMail> {
    const until = Date.now() + (opts.timeoutMs ?? 30_000);
    for (;;) {
      const found = (await this.list(to, opts.after ?? 0)).find((m) => !opts.subject || opts.subject.test(m.subject));
      if (found) return found;
      if (Date.now() > until) throw new Error(`no message to ${to}${opts.subject ? ` matching ${opts.subject}` : ''} within ${opts.timeoutMs ?? 30_000} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The one-time code of the next e-sign message to `to`. */
  async otp(to: string, after?: number): Promise<string> {
    return otpIn(await this.waitFor(to, { subject: /codice per firmare/, after }));
  }
}
