import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type Koa from 'koa';
import { withPlatform, type PlatformDb } from '../db/tenant';
import { canonicalJson } from '../lib/canonical-json';
import { runInRequest } from '../kit/request-context';
import type { AppState } from './context';
import { HttpError, problemBody, UncertainOutcome } from './errors';
import { toHttpError } from './error-handler';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** How long a stored answer is replayed; a retry comes within minutes, a day is generous. */
const KEEP_MS = 24 * 3_600_000;
/**
 * A request that holds its key longer than this died (or could not release it: the database
 * went down under it): a retry may run it again. Requests are bounded well below it (database
 * waits of seconds, workflow updates of 10 s); a retry that still overlaps sends the same
 * workflow update ids, which Temporal answers without applying twice.
 */
const LOCK_MS = 20_000;
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/** API writes only: pages post forms (their own post/redirect/get), and /auth sets cookies a replay could not. */
const applies = (ctx: Koa.Context) => UNSAFE.has(ctx.method) && ctx.path.startsWith('/api/');

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Whose key it is: keys of different callers never meet. */
function scopeOf(ctx: Koa.ParameterizedContext<AppState>): string {
  const s = ctx.state;
  if (s.user) return `staff:${s.user.cod_utente}:${s.tenant ?? '-'}`;
  if (s.customer) return `applicant:${s.customer.caseId}`;
  const token = (typeof ctx.query.token === 'string' && ctx.query.token) || ((ctx.request as unknown as { body?: { token?: unknown } }).body?.token);
  if (typeof token === 'string' && token) return `signer:${sha256(token)}`;
  return `ip:${ctx.ip}`;
}

/** What makes two requests "the same": method, path with query, and the body (a multipart body by its type and size). */
function requestHash(ctx: Koa.Context): string {
  const body = ctx.is('multipart/form-data')
    ? `multipart:${ctx.get('content-length')}`
    : canonicalJson((ctx.request as unknown as { body?: unknown }).body ?? null);
  return sha256(`${ctx.method}\n${ctx.url}\n${body}`);
}

interface Stored {
  request_hash: string; state: 'running' | 'done' | 'retry'; locked_until: Date;
  response_status: number | null; response_type: string | null; response_location: string | null; response_body: string | null;
}

/**
 * Idempotency-Key on every API write: the first request with a key runs and its answer is
 * kept; a retry with the same key gets that answer back (`Idempotent-Replayed: true`) and
 * changes nothing, even if the first one is still running in a workflow (the key also names
 * the workflow updates and the new records, see src/kit/request-context.ts). Answers that say
 * "not now" (5xx, 429) are not kept, so the retry runs again. The same key with another
 * request is a 422; a key whose first request is still running is a 409 with Retry-After.
 */
export function idempotency(platformDb: PlatformDb): Koa.Middleware<AppState> {
  const db = <T>(fn: (trx: Knex.Transaction) => Promise<T>) => withPlatform(platformDb, null, fn);
  return async (ctx, next) => {
    const raw = applies(ctx) ? ctx.get(IDEMPOTENCY_HEADER) : '';
    if (!raw) return next();
    if (!VALID_KEY.test(raw)) {
      throw new HttpError(400, 'INVALID_IDEMPOTENCY_KEY', 'Chiave di idempotenza non valida', `${IDEMPOTENCY_HEADER}: da 1 a 255 caratteri ASCII stampabili, senza spazi`);
    }
    const scope = scopeOf(ctx);
    const hash = requestHash(ctx);
    const now = Date.now();
    // Claimed when new, when its last run asked for a retry, or when its run died holding it.
    const claimed = await db((trx) => trx.raw<{ rows: { attempt: number }[] }>(`
      insert into idempotency_keys (scope, key, method, path, request_hash, locked_until, expires_at)
      values (?, ?, ?, ?, ?, ?, ?)
      on conflict (scope, key) do update set state = 'running', locked_until = excluded.locked_until, expires_at = excluded.expires_at
        where idempotency_keys.request_hash = excluded.request_hash
          and (idempotency_keys.state = 'retry' or (idempotency_keys.state = 'running' and idempotency_keys.locked_until < now()))
      returning attempt`, [scope, raw, ctx.method, ctx.path, hash, new Date(now + LOCK_MS), new Date(now + KEEP_MS)]));
    if (!claimed.rows.length) return answerExisting(ctx, await db((trx) => trx('idempotency_keys').where({ scope, key: raw }).first()) as Stored | undefined, hash);
    const attempt = claimed.rows[0]!.attempt;

    // "Not now": the next run of this key may run again; after an outcome that was certain
    // (nothing changed) it is a new attempt, with new update ids, else the same one.
    const release = (certain: boolean) => db((trx) => trx('idempotency_keys').where({ scope, key: raw, state: 'running' })
      .update({ state: 'retry', attempt: certain ? attempt + 1 : attempt, locked_until: new Date() })).catch(() => undefined);
    const keep = (status: number, type: string | null, location: string | null, body: string) =>
      db((trx) => trx('idempotency_keys').where({ scope, key: raw }).update({
        state: 'done', response_status: status, response_type: type, response_location: location, response_body: body,
      }));
    try {
      await runInRequest(sha256(`${scope}\n${raw}\n${attempt}`), () => next());
    } catch (err) {
      const e = toHttpError(err);
      if (e.status >= 500 || e.status === 429) await release(!(err instanceof UncertainOutcome));
      else await keep(e.status, 'application/problem+json', null, JSON.stringify(problemBody(e, ctx.path))).catch(() => undefined);
      throw err;
    }
    if (ctx.status >= 500 || ctx.status === 429) { await release(true); return; }
    const body = ctx.body === undefined || ctx.body === null ? '' : typeof ctx.body === 'string' ? ctx.body : Buffer.isBuffer(ctx.body) ? ctx.body.toString('utf8') : JSON.stringify(ctx.body);
    // The change is done; failing to keep its answer must not turn it into an error.
    await keep(ctx.status, ctx.response.get('Content-Type') || null, ctx.response.get('Location') || null, body).catch(() => undefined);
  };
}

function answerExisting(ctx: Koa.Context, row: Stored | undefined, hash: string) {
  if (!row) throw new HttpError(409, 'IDEMPOTENCY_KEY_IN_USE', 'Richiesta in corso', 'Una richiesta con questa chiave è in corso: riprova tra poco', { retry_after: 1 });
  if (row.request_hash !== hash) {
    throw new HttpError(422, 'IDEMPOTENCY_KEY_REUSED', 'Chiave di idempotenza già usata', `Questa ${IDEMPOTENCY_HEADER} è già stata usata per una richiesta diversa: usane una nuova`);
  }
  if (row.state === 'running') {
    throw new HttpError(409, 'IDEMPOTENCY_KEY_IN_USE', 'Richiesta in corso', 'Una richiesta con questa chiave è in corso: riprova tra poco', { retry_after: 1 });
  }
  ctx.status = row.response_status ?? 200;
  ctx.set('Idempotent-Replayed', 'true');
  if (row.response_location) ctx.set('Location', row.response_location);
  if (row.response_body) {
    ctx.type = row.response_type ?? 'application/json';
    ctx.body = row.response_body;
  }
}

/** Keys older than a day are forgotten (the web process calls this with the session purge). */
export const purgeIdempotencyKeys = (platformDb: PlatformDb) =>
  withPlatform(platformDb, null, (trx) => trx('idempotency_keys').where('expires_at', '<', new Date()).delete());
