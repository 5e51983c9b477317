/** A message the development server received, as the inbox shows and the API returns it. */
export interface ReceivedMail {
  seq: number;
  messageId: string | null;
  from: string;
  /** Envelope recipients (lower case): where the message was actually delivered. */
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  receivedAt: string;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const when = (iso: string) => new Date(iso).toLocaleString('it-IT', { timeZone: 'Europe/Rome' });

const page = (title: string, body: string) => `<!doctype html>
<html lang="it"><head><meta charset="utf-8"><title>${esc(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;margin:2rem;color:#1d273b}table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #e6e7e9}th{font-size:.8rem;color:#667382}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f8fb;padding:1rem;border-radius:4px}.muted{color:#667382}a{color:#0054a6}
</style></head><body>${body}</body></html>`;

/** The development inbox: newest first, optionally for one recipient. */
export function inboxListHtml(messages: readonly ReceivedMail[], to: string | null): string {
  const rows = messages.map((m) => `<tr><td>${esc(when(m.receivedAt))}</td><td>${esc(m.to.join(', '))}</td>`
    + `<td><a href="/messages/${m.seq}">${esc(m.subject || '(senza oggetto)')}</a></td><td class="muted">${esc(m.from)}</td></tr>`).join('\n');
  return page('Posta in arrivo (sviluppo)', `<h1>Posta in arrivo (sviluppo)</h1>
<p class="muted">Server SMTP locale: i messaggi della piattaforma arrivano qui e non escono dalla macchina.</p>
<form method="get" action="/"><label>Destinatario <input name="to" type="email" value="${esc(to ?? '')}"></label> <button>Filtra</button></form>
<table><thead><tr><th>Ricevuto</th><th>A</th><th>Oggetto</th><th>Da</th></tr></thead><tbody>
${rows || '<tr><td colspan="4" class="muted">Nessun messaggio</td></tr>'}
</tbody></table>`);
}

export function inboxMessageHtml(m: ReceivedMail): string {
  // Plain text only: links become clickable, the sender's HTML is never rendered here.
  const text = esc(m.text).replace(/https?:\/\/[^\s<]+/g, (u) => `<a href="${u}">${u}</a>`);
  return page(m.subject, `<p><a href="/">&larr; Posta in arrivo</a></p><h1>${esc(m.subject || '(senza oggetto)')}</h1>
<table><tbody><tr><th>Da</th><td>${esc(m.from)}</td></tr><tr><th>A</th><td>${esc(m.to.join(', '))}</td></tr>
<tr><th>Ricevuto</th><td>${esc(when(m.receivedAt))}</td></tr><tr><th>Message-ID</th><td>${esc(m.messageId ?? '')}</td></tr></tbody></table>
<pre>${text}</pre>`);
}
