import type { ZodError } from 'zod';

export interface FieldError {
  path: string;
  message: string;
}

/** An error with an HTTP meaning; rendered as RFC 9457 problem details or an error page. */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    public readonly title: string,
    public readonly detail?: string,
    public readonly extra: Record<string, unknown> = {},
  ) {
    super(detail ?? title);
  }
}

export class ValidationError extends HttpError {
  constructor(public readonly errors: FieldError[], detail = 'I dati inviati non sono validi') {
    super(422, 'VALIDATION_ERROR', 'Dati non validi', detail, { errors });
  }
  static fromZod(err: ZodError): ValidationError {
    return new ValidationError(err.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
  }
}

export const notFound = (what = 'Risorsa', genere: 'f' | 'm' = 'f') =>
  new HttpError(404, 'NOT_FOUND', 'Non trovato', `${what} non ${genere === 'm' ? 'trovato' : 'trovata'}`);
export const unauthenticated = () => new HttpError(401, 'UNAUTHENTICATED', 'Autenticazione richiesta', 'Accedi per continuare');
export const forbidden = (detail = 'Non hai i permessi per questa operazione') =>
  new HttpError(403, 'FORBIDDEN', 'Accesso negato', detail);
export const noTenant = () =>
  new HttpError(403, 'NO_TENANT', 'Nessuna azienda assegnata', 'Il tuo utente non è associato ad alcuna azienda');
export const fourEyesRequired = (detail = 'Questa operazione deve essere completata da un utente diverso') =>
  new HttpError(403, 'FOUR_EYES_REQUIRED', 'Principio dei quattro occhi', detail);
export const invalidTransition = (from: string, action: string, allowed: string[]) =>
  new HttpError(409, 'INVALID_TRANSITION', 'Transizione non consentita',
    `L'azione "${action}" non è consentita nello stato "${from}"`, { state: from, action, allowed_actions: allowed });
export const conflict = (code: string, detail: string, extra: Record<string, unknown> = {}) =>
  new HttpError(409, code, 'Conflitto', detail, extra);
/** A dependency (database, Temporal, the worker) is down or too slow: nothing was changed, retry later. */
export const serviceUnavailable = (detail = 'Servizio momentaneamente non disponibile: riprova tra qualche secondo', retryAfterSeconds = 5) =>
  new HttpError(503, 'SERVICE_UNAVAILABLE', 'Servizio non disponibile', detail, { retry_after: retryAfterSeconds });
/**
 * A 503 after which the change may still happen (a workflow update that timed out waiting
 * for a worker): a retry must ask for the same change again, not a new one.
 */
export class UncertainOutcome extends HttpError {
  constructor() {
    super(503, 'SERVICE_UNAVAILABLE', 'Servizio non disponibile',
      'La richiesta non ha avuto risposta in tempo e potrebbe essere ancora in corso: ripetila con la stessa Idempotency-Key per conoscerne l\'esito', { retry_after: 5 });
  }
}
export const tooManyRequests = (detail: string, retryAfterSeconds: number) =>
  new HttpError(429, 'TOO_MANY_ATTEMPTS', 'Troppi tentativi', detail, { retry_after: retryAfterSeconds });

export function problemBody(err: HttpError, instance?: string) {
  // The details come first: RFC 9457's own members (status above all) always win.
  return {
    ...err.extra,
    type: `/problems/${err.code.toLowerCase().replace(/_/g, '-')}`,
    title: err.title,
    status: err.status,
    detail: err.detail,
    code: err.code,
    ...(instance ? { instance } : {}),
  };
}
