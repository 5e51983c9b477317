import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { inboxListHtml, inboxMessageHtml, type ReceivedMail } from './dev-mail-inbox';

export type { ReceivedMail } from './dev-mail-inbox';

export interface DevMailServer {
  smtpPort: number;
  webPort: number;
  webUrl: string;
  messages(): readonly ReceivedMail[];
  stop(): Promise<void>;
}

/** Keeps the newest messages only: a development inbox, not an archive. */
const KEEP = 2000;

const listen = (server: { listen(port: number, host: string, cb: () => void): unknown; once(ev: 'error', cb: (e: Error) => void): unknown }, port: number, host: string) =>
  new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(port, host, resolve); });

/**
 * The local SMTP server of `npm start` and of the tests: a real SMTP listener (smtp-server,
 * mailparser) that keeps what it receives in memory, and a small web inbox beside it
 * (`/` lists, `/messages/:seq` shows one, `/api/messages?to=&after=` answers JSON).
 * Loopback only, no authentication, no TLS: never a relay.
 */
export async function startDevMailServer(opts: { smtpPort: number; webPort: number; host?: string }): Promise<DevMailServer> {
  const host = opts.host ?? '127.0.0.1';
  const store: ReceivedMail[] = [];
  let seq = 0;

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    banner: 'compliance-platform development mail server',
    size: 10 * 1024 * 1024,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then((parsed) => {
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        store.push({
          seq: ++seq, messageId: parsed.messageId ?? null, from, to, subject: parsed.subject ?? '', text: parsed.text ?? '',
          html: typeof parsed.html === 'string' ? parsed.html : null, receivedAt: new Date().toISOString(),
        });
        if (store.length > KEEP) store.splice(0, store.length - KEEP);
        callback();
      }, (err: Error) => callback(err));
    },
  });
  await listen(smtp, opts.smtpPort, host);

  const web: Server = createServer((req, res) => {
    try {
      route(req, res);
    } catch {
      res.writeHead(500).end();
    }
  });
  const route = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://inbox');
    const to = url.searchParams.get('to')?.trim().toLowerCase() || null;
    const after = Number(url.searchParams.get('after') ?? 0) || 0;
    const filtered = () => store.filter((m) => m.seq > after && (!to || m.to.includes(to)));
    if (url.pathname === '/api/messages' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(filtered()));
    } else if (url.pathname === '/api/messages' && req.method === 'DELETE') {
      store.length = 0;
      res.writeHead(204).end();
    } else if (url.pathname === '/' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(inboxListHtml([...filtered()].reverse(), to));
    } else if (/^\/messages\/\d+$/.test(url.pathname) && req.method === 'GET') {
      const m = store.find((x) => x.seq === Number(url.pathname.split('/')[2]));
      if (!m) res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Messaggio non trovato');
      else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(inboxMessageHtml(m));
    } else {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Non trovato');
    }
  };
  try {
    await listen(web, opts.webPort, host);
  } catch (err) {
    await new Promise<void>((r) => smtp.close(() => r()));
    throw err;
  }
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const webPort = (web.address() as AddressInfo).port;
  return {
    smtpPort,
    webPort,
    webUrl: `http://localhost:${webPort}`,
    messages: () => store,
    async stop() {
      web.closeAllConnections();
      await Promise.all([
        new Promise<void>((r) => web.close(() => r())),
        new Promise<void>((r) => smtp.close(() => r())),
      ]);
    },
  };
}
