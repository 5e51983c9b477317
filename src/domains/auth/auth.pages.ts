import type { AppServices } from '../../kit/area';
import { HttpError } from '../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import { endSession, safeNext, startSession } from './auth.session';
import { SignIn } from './auth.service';
import { enrolmentData, groupedSecret, newTotpSecret } from './totp';
import type { Routes } from '../../kit/routes';
import { PUBLIC, SECOND_FACTOR } from '../../kit/access';

type Form = Record<string, unknown>;
const formOf = (ctx: Ctx): Form => ((ctx.request as unknown as { body?: Form }).body ?? {}) as Form;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** Italian messages for the errors sign-in can end with, shown next to the form. */
function pageMessage(err: HttpError): string {
  switch (err.code) {
    case 'INVALID_CREDENTIALS': return 'Nome utente o password non validi.';
    case 'INVALID_TOTP': return 'Codice non valido o già utilizzato. Attendi il codice successivo e riprova.';
    case 'TOO_MANY_ATTEMPTS': return err.detail ?? 'Troppi tentativi non riusciti. Riprova più tardi.';
    default: return err.detail ?? err.title;
  }
}

/** Renders the form again with the message, or rethrows what is not a sign-in outcome. */
function formFailure(ctx: Ctx, err: unknown, rerender: (errors: Record<string, string>, status: number) => void) {
  if (!(err instanceof HttpError) || ![401, 409, 429].includes(err.status)) throw err;
  if (err.status === 429 && typeof err.extra.retry_after === 'number') ctx.set('Retry-After', String(err.extra.retry_after));
  rerender({ _form: pageMessage(err) }, err.status);
}

const renderLogin = (ctx: Ctx, services: AppServices, data: { username?: string; next?: string; errors?: Record<string, string> }, status = 200) =>
  render(ctx, services.views, 'auth/login.njk', { title: 'Accedi', username: data.username ?? '', next: data.next ?? '', errors: data.errors ?? {} }, { status });

/** POST /login (and a urlencoded POST /auth/login): the first factor, then the TOTP step. */
export async function submitLoginForm(ctx: Ctx, services: AppServices, signIn: SignIn) {
  const form = formOf(ctx);
  const username = str(form.username).trim().slice(0, 200);
  const password = str(form.password).slice(0, 1000);
  const next = safeNext(form.next, '');
  const errors: Record<string, string> = {};
  if (!username) errors.username = 'Inserisci il nome utente.';
  if (!password) errors.password = 'Inserisci la password.';
  if (Object.keys(errors).length) return renderLogin(ctx, services, { username, next, errors }, 422);
  try {
    const account = await signIn.checkPassword({ username, ip: ctx.ip }, password);
    // The session exists but is not signed in until the second factor; `next` waits in it.
    await startSession(ctx, services, { codUtente: account.cod_utente, mfaOk: false, data: { next } });
    ctx.redirect(account.totp_enabled ? '/totp/verify' : '/totp/setup');
  } catch (err) {
    formFailure(ctx, err, (e, status) => renderLogin(ctx, services, { username, next, errors: e }, status));
  }
}

/** The half signed-in user (password given, TOTP owed): the SECOND_FACTOR access admitted only them. */
const pendingUser = (ctx: Ctx) => ctx.state.pendingUser!;

/** Second factor passed: a new session id, now signed in, and on to where the user was going. */
async function finishSignIn(ctx: Ctx, services: AppServices, codUtente: string, flash?: string) {
  const next = safeNext(ctx.state.session?.data?.next);
  await startSession(ctx, services, { codUtente, mfaOk: true });
  if (flash) redirectWithFlash(ctx, next, 'success', flash);
  else ctx.redirect(next);
}

export function registerAuthPages(router: Routes, services: AppServices) {
  const { deps, views } = services;
  const signIn = new SignIn(deps.platformDb, deps.logger, deps.secrets);

  router.get('/login', PUBLIC, async (ctx) => {
    const next = safeNext(ctx.query.next, '');
    if (ctx.state.user) return ctx.redirect(next || '/');
    renderLogin(ctx, services, { next });
  });
  router.post('/login', PUBLIC, (ctx) => submitLoginForm(ctx, services, signIn));

  const logout = async (ctx: Ctx) => {
    const user = ctx.state.user ?? ctx.state.pendingUser;
    const had = !!ctx.state.session;
    await endSession(ctx, services);
    if (user && had) await signIn.audit(user, 'auth.logout', { via: 'page' });
    redirectWithFlash(ctx, '/login', 'info', 'Sei uscito dalla piattaforma.');
  };
  router.get('/logout', PUBLIC, logout);
  router.post('/logout', PUBLIC, logout);

  router.get('/totp/verify', SECOND_FACTOR, async (ctx) => {
    const user = pendingUser(ctx);
    if (!user.totp_enabled) return ctx.redirect('/totp/setup');
    render(ctx, views, 'auth/totp-verify.njk', { title: 'Verifica in due passaggi', errors: {} });
  });

  router.post('/totp/verify', SECOND_FACTOR, async (ctx) => {
    const user = pendingUser(ctx);
    const account = await signIn.reload(user.cod_utente);
    if (!account?.totp_enabled) return ctx.redirect('/totp/setup');
    const code = str(formOf(ctx).code).replace(/\s/g, '');
    const again = (errors: Record<string, string>, status: number) =>
      render(ctx, views, 'auth/totp-verify.njk', { title: 'Verifica in due passaggi', errors }, { status });
    if (!/^\d{6}$/.test(code)) return again({ code: 'Inserisci il codice di 6 cifre mostrato dalla tua app.' }, 422);
    try {
      await signIn.completeWithTotp({ username: account.username, ip: ctx.ip }, account, code, 'page');
    } catch (err) {
      return formFailure(ctx, err, again);
    }
    await finishSignIn(ctx, services, account.cod_utente);
  });

  /** The pending secret lives in the session until confirmed, never on the user. */
  async function pendingSecret(ctx: Ctx): Promise<string> {
    const session = ctx.state.session!;
    const existing = session.data?.totp_pending;
    if (typeof existing === 'string' && existing) return existing;
    const secret = newTotpSecret();
    const data = { ...(session.data ?? {}), totp_pending: secret };
    await services.sessions.update(session.id_hash, { data });
    session.data = data;
    return secret;
  }

  const renderSetup = async (ctx: Ctx, username: string, errors: Record<string, string> = {}, status = 200) => {
    const e = await enrolmentData(await pendingSecret(ctx), username);
    render(ctx, views, 'auth/totp-setup.njk', { title: 'Configura la verifica in due passaggi', enrol: { ...e, grouped: groupedSecret(e.secret) }, errors }, { status });
  };

  router.get('/totp/setup', SECOND_FACTOR, async (ctx) => {
    const user = pendingUser(ctx);
    if (user.totp_enabled) return ctx.redirect('/totp/verify');
    await renderSetup(ctx, user.username);
  });

  router.post('/totp/setup', SECOND_FACTOR, async (ctx) => {
    const user = pendingUser(ctx);
    if (user.totp_enabled) return ctx.redirect('/totp/verify');
    const secret = ctx.state.session!.data?.totp_pending;
    if (typeof secret !== 'string' || !secret) return ctx.redirect('/totp/setup');
    const account = await signIn.reload(user.cod_utente);
    if (!account) return ctx.redirect('/login');
    const code = str(formOf(ctx).code).replace(/\s/g, '');
    if (!/^\d{6}$/.test(code)) return renderSetup(ctx, user.username, { code: 'Inserisci il codice di 6 cifre mostrato dalla tua app.' }, 422);
    try {
      await signIn.enrolTotp({ username: account.username, ip: ctx.ip }, account, secret, code);
    } catch (err) {
      return formFailure(ctx, err, (e, status) => renderSetup(ctx, user.username, e, status));
    }
    await finishSignIn(ctx, services, account.cod_utente, 'Verifica in due passaggi attivata. Benvenuto!');
  });
}
