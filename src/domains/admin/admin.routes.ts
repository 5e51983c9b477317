import type { Knex } from 'knex';
import { z } from 'zod';
import { withTenant } from '../../db/tenant';

import { tenantOf } from '../../http/auth';
import { forbidden, notFound, ValidationError } from '../../http/errors';
import type { RegisterRoutes } from '../../kit/area';
import { adminListScope, inAdminScope, assertCanManage, assertNotSelfLockout, isSuperadmin, mapUniqueViolation, settingsTenant } from './admin.access';
import { createAzienda, createUtente, resetMfa, updateUtente } from './admin.commands';
import { getAzienda, getUtente, listAziende, listUtenti, aziendeListQuery, utentiListQuery } from './admin.repo';
import { aziendaCreateSchema, aziendaResponse, aziendeListResponse, utenteCreateSchema, utenteResponse, utenteUpdateSchema, utentiListResponse } from './admin.schemas';
import { listSettings, settingResponse, settingsListResponse, settingUpdateSchema, updateSetting, type SettingKey } from './admin.settings';
import { staff } from '../../kit/access';

const TAG = 'Admin';

const settingsQuery = z.object({ cod_azienda: z.string().max(20).optional() });

/** Tenants, users and settings (JSON API). */
export const registerAdminRoutes: RegisterRoutes = (router, { deps, sessions }) => {
  const inScope = <T>(ctx: Parameters<typeof inAdminScope>[1], fn: (trx: Knex.Transaction) => Promise<T>) => inAdminScope(deps, ctx, fn);

  router.api({
    method: 'GET', path: '/api/admin/aziende', summary: 'List tenants', tag: TAG, access: staff(['superadmin']), query: aziendeListQuery, response: aziendeListResponse,
    handler: (ctx, { query }) => inScope(ctx, (trx) => listAziende(trx, query)),
  });
  router.api({
    method: 'POST', path: '/api/admin/aziende', summary: 'Create a tenant', tag: TAG, access: staff(['superadmin']), body: aziendaCreateSchema, response: aziendaResponse, status: 201,
    handler: (ctx, { body }) => inScope(ctx, (trx) => createAzienda(trx, body, ctx.state.user!.username))
      .catch((e) => mapUniqueViolation(e, 'AZIENDA_EXISTS', `Esiste già un'azienda con codice ${body.cod_azienda}`)),
  });
  router.api({
    method: 'GET', path: '/api/admin/aziende/:cod_azienda', summary: 'Read a tenant', tag: TAG, access: staff(['superadmin', 'admin']), response: aziendaResponse,
    handler: async (ctx, { params }) => {
      const row = await inScope(ctx, (trx) => getAzienda(trx, params.cod_azienda!));
      if (!row) throw notFound('Azienda');
      return row;
    },
  });

  router.api({
    method: 'GET', path: '/api/admin/utenti', summary: 'List users', tag: TAG, access: staff(['superadmin', 'admin']), query: utentiListQuery, response: utentiListResponse,
    handler: (ctx, { query }) => inScope(ctx, (trx) => listUtenti(trx, adminListScope(ctx), query)),
  });
  router.api({
    method: 'POST', path: '/api/admin/utenti', summary: 'Create a user', tag: TAG, access: staff(['superadmin', 'admin']), body: utenteCreateSchema, response: utenteResponse, status: 201,
    handler: async (ctx, { body }) => {
      const input = { ...body };
      if (!isSuperadmin(ctx)) {
        if (input.ruoli.includes('superadmin')) throw forbidden('Solo un superamministratore può assegnare il ruolo superadmin');
        const own = tenantOf(ctx);
        if (input.cod_azienda && input.cod_azienda !== own) throw forbidden('Puoi creare utenti solo nella tua azienda');
        input.cod_azienda = own;
      } else if (input.cod_azienda) {
        const exists = await inScope(ctx, (trx) => getAzienda(trx, input.cod_azienda!));
        if (!exists) throw new ValidationError([{ path: 'cod_azienda', message: 'Azienda inesistente' }]);
      }
      return inScope(ctx, (trx) => createUtente(trx, input, ctx.state.user!.username))
        .catch((e) => mapUniqueViolation(e, 'USERNAME_TAKEN', `Il nome utente ${body.username} è già in uso`));
    },
  });
  router.api({
    method: 'PATCH', path: '/api/admin/utenti/:cod_utente', summary: 'Update a user', tag: TAG, access: staff(['superadmin', 'admin']), body: utenteUpdateSchema, response: utenteResponse,
    handler: async (ctx, { body, params }) => {
      if (!isSuperadmin(ctx) && body.ruoli?.includes('superadmin')) throw forbidden('Solo un superamministratore può assegnare il ruolo superadmin');
      const row = await inScope(ctx, async (trx) => {
        const target = await getUtente(trx, params.cod_utente!);
        if (!target) throw notFound('Utente', 'm');
        assertCanManage(ctx, target);
        assertNotSelfLockout(ctx, target, body);
        return updateUtente(trx, params.cod_utente!, body, ctx.state.user!.username);
      });
      // A disabled account or a new password ends the sessions that were open.
      if (body.attivo === false || body.password) await sessions.destroyForUser(row.cod_utente);
      return row;
    },
  });
  router.api({
    method: 'POST', path: '/api/admin/utenti/:id/reset-mfa', summary: "Reset a user's TOTP enrolment", tag: TAG, access: staff(['superadmin', 'admin']), response: utenteResponse,
    handler: async (ctx, { params }) => {
      const row = await inScope(ctx, async (trx) => {
        const target = await getUtente(trx, params.id!);
        if (!target) throw notFound('Utente', 'm');
        assertCanManage(ctx, target);
        return resetMfa(trx, params.id!, ctx.state.user!.username);
      });
      await sessions.destroyForUser(row.cod_utente);
      return row;
    },
  });

  router.api({
    method: 'GET', path: '/api/admin/settings', summary: "List the tenant's settings (a superadmin may name the tenant)", tag: TAG, access: staff(['superadmin', 'admin']), query: settingsQuery, response: settingsListResponse,
    handler: async (ctx, { query }) => {
      const cod = await settingsTenant(deps.platformDb, ctx, query.cod_azienda);
      return { items: await withTenant(deps.db, { codAzienda: cod, actor: ctx.state.user!.username }, (trx) => listSettings(trx, cod)) };
    },
  });
  router.api({
    method: 'PUT', path: '/api/admin/settings', summary: 'Update one setting: `valore` has the type of the key (integer, number or boolean; another type is 422)', tag: TAG, access: staff(['superadmin', 'admin']), body: settingUpdateSchema, query: settingsQuery, response: settingResponse,
    handler: async (ctx, { body, query }) => {
      // The body schema has already checked the value's type and range for its key.
      const key = body.chiave as SettingKey;
      const cod = await settingsTenant(deps.platformDb, ctx, query.cod_azienda);
      return withTenant(deps.db, { codAzienda: cod, actor: ctx.state.user!.username }, (trx) => updateSetting(trx, cod, key, body.valore, ctx.state.user!.username));
    },
  });
};
