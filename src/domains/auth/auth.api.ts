import { z } from 'zod';
import type { AppServices } from '../../kit/area';

import { loadUser } from '../../http/auth';
import type { SessionUser } from '../../http/context';
import { notFound, unauthenticated } from '../../http/errors';
import { setFlash, type Ctx } from '../../http/render';
import { withPlatform } from '../../db/tenant';
import { endSession, startSession } from './auth.session';
import { mfaEnrolmentRequired, mfaRequired, SignIn } from './auth.service';
import { submitLoginForm } from './auth.pages';
import type { Routes } from '../../kit/routes';
import { staff, PUBLIC } from '../../kit/access';

const loginBody = z.object({
  username: z.string().trim().min(1).max(200),
  password: z.string().min(1).max(1000),
  // A number is accepted too: some clients send the code as 123456.
  totp: z.union([z.string().max(20), z.number()]).transform((v) => String(v).trim()).optional(),
});

const meResponse = z.object({
  user: z.object({
    cod_utente: z.string(), username: z.string(), email: z.string(), nome: z.string(), cognome: z.string(),
    cod_azienda: z.string().nullable(), ruoli: z.array(z.string()),
  }),
  tenant: z.string().nullable(),
  mfa: z.object({ enrolled: z.boolean(), verified: z.boolean() }),
});

export function meBody(user: SessionUser, tenant: string | null | undefined, mfaOk: boolean) {
  return {
    user: { cod_utente: user.cod_utente, username: user.username, email: user.email, nome: user.nome, cognome: user.cognome, cod_azienda: user.cod_azienda, ruoli: user.ruoli },
    tenant: tenant ?? null,
    mfa: { enrolled: user.totp_enabled, verified: mfaOk },
  };
}

const subjectOf = (ctx: Ctx, username: string) => ({ username, ip: ctx.ip });

export function registerAuthApi(router: Routes, services: AppServices) {
  const { deps } = services;
  const signIn = new SignIn(deps.platformDb, deps.logger, deps.secrets);

  // The sign-in form may post here too (urlencoded, with its CSRF token): it gets the page flow.
  router.post('/auth/login', PUBLIC, async (ctx, next) => {
    if (ctx.is('application/x-www-form-urlencoded')) return submitLoginForm(ctx, services, signIn);
    await next();
  });

  router.api({
    method: 'POST', path: '/auth/login', tag: 'Auth', access: PUBLIC, body: loginBody, response: meResponse,
    summary: 'Accesso con nome utente, password e codice TOTP; imposta il cookie di sessione',
    handler: async (ctx, { body }) => {
      const s = subjectOf(ctx, body.username);
      const account = await signIn.checkPassword(s, body.password);
      if (!account.totp_enabled) throw mfaEnrolmentRequired();
      if (!body.totp) throw mfaRequired();
      await signIn.completeWithTotp(s, account, body.totp, 'api');
      await startSession(ctx, services, { codUtente: account.cod_utente, mfaOk: true });
      const user = await loadUser(deps.platformDb, account.cod_utente);
      if (!user) throw unauthenticated();
      return meBody(user, user.cod_azienda, true);
    },
  });

  router.api({
    method: 'POST', path: '/auth/logout', tag: 'Auth', access: PUBLIC, status: 204,
    summary: 'Chiude la sessione sul server e cancella il cookie',
    handler: async (ctx) => {
      const user = ctx.state.user ?? ctx.state.pendingUser;
      const hadSession = !!ctx.state.session;
      await endSession(ctx, services);
      if (user && hadSession) await signIn.audit(user, 'auth.logout', { via: 'api' });
      return undefined;
    },
  });

  router.api({
    method: 'GET', path: '/auth/me', tag: 'Auth', access: staff(), response: meResponse,
    summary: "L'utente della sessione: ruoli, azienda attiva, stato dell'autenticazione a due fattori",
    handler: async (ctx) => meBody(ctx.state.user!, ctx.state.tenant, true),
  });

  router.api({
    method: 'POST', path: '/auth/tenant', tag: 'Auth', access: staff(['superadmin']),
    body: z.object({ cod_azienda: z.string().trim().max(50).nullable().optional() }),
    response: meResponse,
    summary: "Superamministratore: sceglie l'azienda in cui operare (null o vuoto: nessuna)",
    handler: async (ctx, { body }) => {
      const user = ctx.state.user!;
      const target = body.cod_azienda || null;
      if (target) {
        const exists = await withPlatform(deps.platformDb, user.username, (trx) => trx('aziende').where({ cod_azienda: target }).first('cod_azienda'));
        if (!exists) throw notFound('Azienda');
      }
      await services.sessions.update(ctx.state.session!.id_hash, { tenant_attivo: target });
      ctx.state.tenant = target ?? user.cod_azienda;
      // Recorded on the chain of the tenant entered, so that tenant's log shows who looked in.
      await signIn.audit(user, 'auth.tenant_switched', { from: ctx.state.session!.tenant_attivo, to: target }, target ?? user.cod_azienda);
      if (ctx.is('application/x-www-form-urlencoded')) {
        ctx.redirect('/');
        setFlash(ctx, 'success', target ? `Ora operi nell'azienda ${target}` : 'Nessuna azienda selezionata');
        return undefined;
      }
      return meBody(user, ctx.state.tenant, true);
    },
  });
}
