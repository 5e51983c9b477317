import type { Knex } from 'knex';
import { withTenant } from '../../db/tenant';
import { hasRole, tenantOf } from '../../http/auth';
import { forbidden, HttpError, notFound, ValidationError } from '../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import { fieldErrors } from '../../http/validate';
import { ROLE_LABELS } from '../../kit/roles';
import type { RegisterRoutes } from '../../kit/area';
import { adminListScope, inAdminScope, assertCanManage, assertNotSelfLockout, isSuperadmin, settingsTenant } from './admin.access';
import { endTenantSessions } from './admin.sessions';
import { createAzienda, createUtente, resetMfa, updateAzienda, updateUtente } from './admin.commands';
import { aziendeListQuery, getAzienda, getUtente, listAziende, listUtenti, utentiListQuery } from './admin.repo';
import { aziendaCreateSchema, aziendaUpdateSchema, utenteCreateSchema, utenteUpdateSchema } from './admin.schemas';
import { listSettings, parseSettingValue, SETTINGS_CATALOGUE, isSettingKey, updateSetting } from './admin.settings';
import { aziendaFromForm, roleOptions, tipoOptions, TIPO_LABELS, utenteFromForm } from './organizzazione.forms';
import { staff } from '../../kit/access';

const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});
const labels = { tipo: TIPO_LABELS, ruolo: ROLE_LABELS };
const ADMINS = ['superadmin', 'admin'] as const;

/** Tenants, users and settings pages: forms post, the server redirects with a flash message. */
export const registerOrganizzazionePages: RegisterRoutes = (router, { deps, views, sessions }) => {
  const inScope = <T>(ctx: Ctx, fn: (trx: Knex.Transaction) => Promise<T>) => inAdminScope(deps, ctx, fn);
  const actor = (ctx: Ctx) => ctx.state.user!.username;
  const isUnique = (e: unknown) => (e as { code?: string })?.code === '23505';

  // The /admin paths of the old console lead to their pages here.
  router.get('/admin', staff(ADMINS), (ctx) => ctx.redirect(isSuperadmin(ctx) ? '/organizzazione' : '/organizzazione/utenti'));
  for (const [from, to] of [['/admin/configurazione', '/organizzazione/configurazione'], ['/admin/nuovo', '/organizzazione/nuovo'], ['/admin/utenti', '/organizzazione/utenti'], ['/admin/utenti/nuovo', '/organizzazione/utenti/nuovo']] as const) {
    router.get(from, staff(ADMINS), (ctx) => ctx.redirect(to));
  }

  // Tenants (platform operators)
  router.get('/organizzazione', staff(['superadmin']), async (ctx) => {
    const parsed = aziendeListQuery.safeParse(ctx.query);
    const q = parsed.success ? parsed.data : aziendeListQuery.parse({});
    const result = await inScope(ctx, (trx) => listAziende(trx, q));
    render(ctx, views, 'organizzazione/aziende.njk', { result, filters: { q: q.q ?? '', attiva: q.attiva ?? '', sort: q.sort }, labels },
      { fragment: 'organizzazione/_aziende_table.njk' });
  });

  const renderAziendaForm = (ctx: Ctx, mode: 'new' | 'edit', values: Record<string, unknown>, errors: Record<string, string> = {}, status = 200) =>
    render(ctx, views, 'organizzazione/azienda-form.njk', { mode, values, errors, tipoOptions }, { status });

  router.get('/organizzazione/nuovo', staff(['superadmin']), (ctx) => renderAziendaForm(ctx, 'new', { tipo_intermediario: 'banca' }));
  router.post('/organizzazione/nuovo', staff(['superadmin']), async (ctx) => {
    const values = aziendaFromForm(formBody(ctx));
    const parsed = aziendaCreateSchema.safeParse(values);
    if (!parsed.success) return renderAziendaForm(ctx, 'new', values, fieldErrors(parsed.error), 422);
    try {
      await inScope(ctx, (trx) => createAzienda(trx, parsed.data, actor(ctx)));
    } catch (e) {
      if (isUnique(e)) return renderAziendaForm(ctx, 'new', values, { cod_azienda: 'Esiste già un’azienda con questo codice' }, 409);
      throw e;
    }
    redirectWithFlash(ctx, `/organizzazione/${parsed.data.cod_azienda}`, 'success', 'Azienda creata');
  });

  // Settings of the current tenant
  const requestedTenant = (ctx: Ctx) => (typeof ctx.query.cod_azienda === 'string' ? ctx.query.cod_azienda : undefined);
  router.get('/organizzazione/configurazione', staff(ADMINS), async (ctx) => {
    const cod = await settingsTenant(deps.platformDb, ctx, requestedTenant(ctx));
    const settings = await withTenant(deps.db, { codAzienda: cod }, (trx) => listSettings(trx, cod));
    render(ctx, views, 'organizzazione/configurazione.njk', { settings, errors: {}, values: {}, settingsTenant: cod });
  });
  router.post('/organizzazione/configurazione', staff(ADMINS), async (ctx) => {
    const cod = await settingsTenant(deps.platformDb, ctx, requestedTenant(ctx));
    const body = formBody(ctx);
    const key = String(body.chiave ?? '');
    if (!isSettingKey(key)) throw new HttpError(422, 'VALIDATION_ERROR', 'Dati non validi', 'Impostazione sconosciuta');
    const raw = SETTINGS_CATALOGUE[key].default === true || SETTINGS_CATALOGUE[key].default === false ? (body.valore ?? 'false') : body.valore;
    const parsed = parseSettingValue(key, raw);
    if (!parsed.success) {
      const settings = await withTenant(deps.db, { codAzienda: cod }, (trx) => listSettings(trx, cod));
      return render(ctx, views, 'organizzazione/configurazione.njk', { settings, settingsTenant: cod, errors: { [key]: parsed.error.issues[0]?.message ?? 'Valore non valido' }, values: { [key]: body.valore } }, { status: 422 });
    }
    await withTenant(deps.db, { codAzienda: cod, actor: actor(ctx) }, (trx) => updateSetting(trx, cod, key, parsed.data, actor(ctx)));
    const back = cod === ctx.state.tenant ? '/organizzazione/configurazione' : `/organizzazione/configurazione?cod_azienda=${encodeURIComponent(cod)}`;
    redirectWithFlash(ctx, back, 'success', 'Impostazione salvata');
  });

  // Users
  router.get('/organizzazione/utenti', staff(ADMINS), async (ctx) => {
    const parsed = utentiListQuery.safeParse(ctx.query);
    const q = parsed.success ? parsed.data : utentiListQuery.parse({});
    const result = await inScope(ctx, (trx) => listUtenti(trx, adminListScope(ctx), q));
    render(ctx, views, 'organizzazione/utenti.njk', {
      result, labels, superadmin: isSuperadmin(ctx), roleOptions: roleOptions(true),
      filters: { q: q.q ?? '', ruolo: q.ruolo ?? '', attivo: q.attivo ?? '', cod_azienda: q.cod_azienda ?? '', sort: q.sort },
    }, { fragment: 'organizzazione/_utenti_table.njk' });
  });

  const renderUtenteForm = async (ctx: Ctx, mode: 'new' | 'edit', values: Record<string, unknown>, errors: Record<string, string> = {}, status = 200) => {
    const aziende = isSuperadmin(ctx) ? (await inScope(ctx, (trx) => listAziende(trx, aziendeListQuery.parse({ limit: 200 })))).items : [];
    render(ctx, views, 'organizzazione/utente-form.njk', {
      mode, values, errors, roleOptions: roleOptions(isSuperadmin(ctx)), superadmin: isSuperadmin(ctx),
      aziendaOptions: [{ value: '', label: 'Nessuna (utente di piattaforma)' }, ...aziende.map((a: { cod_azienda: string; ragione_sociale: string }) => ({ value: a.cod_azienda, label: `${a.ragione_sociale} (${a.cod_azienda})` }))],
    }, { status });
  };

  router.get('/organizzazione/utenti/nuovo', staff(ADMINS), (ctx) => renderUtenteForm(ctx, 'new', { ruoli: ['analyst'], cod_azienda: ctx.state.tenant ?? '' }));
  router.post('/organizzazione/utenti/nuovo', staff(ADMINS), async (ctx) => {
    const values = utenteFromForm(formBody(ctx));
    if (!isSuperadmin(ctx)) values.cod_azienda = tenantOf(ctx);
    const parsed = utenteCreateSchema.safeParse(values);
    if (!parsed.success) return renderUtenteForm(ctx, 'new', values, fieldErrors(parsed.error), 422);
    if (!isSuperadmin(ctx) && parsed.data.ruoli.includes('superadmin')) throw forbidden('Solo un superamministratore può assegnare il ruolo superadmin');
    let created: { cod_utente: string };
    try {
      created = await inScope(ctx, (trx) => createUtente(trx, parsed.data, actor(ctx)));
    } catch (e) {
      if (isUnique(e)) return renderUtenteForm(ctx, 'new', values, { username: 'Nome utente già in uso' }, 409);
      // A tenant code that is not in the list (crafted post, or just deleted) is a form error, not a 500.
      if ((e as { code?: string })?.code === '23503') return renderUtenteForm(ctx, 'new', values, { cod_azienda: 'Azienda inesistente' }, 422);
      throw e;
    }
    redirectWithFlash(ctx, `/organizzazione/utenti/${created.cod_utente}`, 'success', 'Utente creato: al primo accesso configurerà l’app di autenticazione');
  });

  const loadUtente = async (ctx: Ctx) => {
    const u = await inScope(ctx, (trx) => getUtente(trx, ctx.params.id));
    if (!u) throw notFound('Utente', 'm');
    return u;
  };

  router.get('/organizzazione/utenti/:id', staff(ADMINS), async (ctx) => {
    const utente = await loadUtente(ctx);
    const canManage = isSuperadmin(ctx) || !utente.ruoli.includes('superadmin');
    render(ctx, views, 'organizzazione/utente.njk', { utente, labels, canManage, self: utente.cod_utente === ctx.state.user!.cod_utente });
  });
  router.get('/organizzazione/utenti/:id/modifica', staff(ADMINS), async (ctx) => {
    const utente = await loadUtente(ctx);
    assertCanManage(ctx, utente);
    await renderUtenteForm(ctx, 'edit', utente);
  });
  router.post('/organizzazione/utenti/:id/modifica', staff(ADMINS), async (ctx) => {
    const utente = await loadUtente(ctx);
    assertCanManage(ctx, utente);
    const form = utenteFromForm(formBody(ctx));
    const values = { ...utente, ...form, username: utente.username, cod_azienda: utente.cod_azienda };
    const parsed = utenteUpdateSchema.safeParse({ email: form.email, nome: form.nome, cognome: form.cognome, ruoli: form.ruoli, password: form.password });
    if (!parsed.success) return renderUtenteForm(ctx, 'edit', values, fieldErrors(parsed.error), 422);
    if (!isSuperadmin(ctx) && parsed.data.ruoli?.includes('superadmin')) throw forbidden('Solo un superamministratore può assegnare il ruolo superadmin');
    try {
      assertNotSelfLockout(ctx, utente, parsed.data);
    } catch (e) {
      if (e instanceof ValidationError) return renderUtenteForm(ctx, 'edit', values, Object.fromEntries(e.errors.map((x) => [x.path, x.message])), 422);
      throw e;
    }
    await inScope(ctx, (trx) => updateUtente(trx, utente.cod_utente, parsed.data, actor(ctx)));
    if (parsed.data.password) await sessions.destroyForUser(utente.cod_utente);
    redirectWithFlash(ctx, `/organizzazione/utenti/${utente.cod_utente}`, 'success', 'Utente aggiornato');
  });
  router.post('/organizzazione/utenti/:id/toggle', staff(ADMINS), async (ctx) => {
    const utente = await loadUtente(ctx);
    assertCanManage(ctx, utente);
    if (utente.cod_utente === ctx.state.user!.cod_utente) return redirectWithFlash(ctx, `/organizzazione/utenti/${utente.cod_utente}`, 'danger', 'Non puoi disattivare il tuo stesso utente');
    const row = await inScope(ctx, (trx) => updateUtente(trx, utente.cod_utente, { attivo: !utente.attivo }, actor(ctx)));
    if (!row.attivo) await sessions.destroyForUser(row.cod_utente);
    redirectWithFlash(ctx, `/organizzazione/utenti/${row.cod_utente}`, 'success', row.attivo ? 'Utente riattivato' : 'Utente disattivato: le sue sessioni sono state chiuse');
  });
  router.post('/organizzazione/utenti/:id/reset-mfa', staff(ADMINS), async (ctx) => {
    const utente = await loadUtente(ctx);
    assertCanManage(ctx, utente);
    await inScope(ctx, (trx) => resetMfa(trx, utente.cod_utente, actor(ctx)));
    await sessions.destroyForUser(utente.cod_utente);
    redirectWithFlash(ctx, `/organizzazione/utenti/${utente.cod_utente}`, 'success', 'Secondo fattore azzerato: l’utente lo configurerà di nuovo al prossimo accesso');
  });

  // Tenant detail and edit (after the fixed paths above, which :cod would also match)
  const loadAzienda = async (ctx: Ctx) => {
    const cod = String(ctx.params.cod);
    if (!isSuperadmin(ctx) && cod !== tenantOf(ctx)) throw notFound('Azienda');
    const a = await inScope(ctx, (trx) => getAzienda(trx, cod));
    if (!a) throw notFound('Azienda');
    return a;
  };
  router.get('/organizzazione/:cod', staff(ADMINS), async (ctx) => {
    const azienda = await loadAzienda(ctx);
    const utenti = await inScope(ctx, (trx) => listUtenti(trx, adminListScope(ctx), utentiListQuery.parse({ cod_azienda: azienda.cod_azienda, limit: 200 })));
    render(ctx, views, 'organizzazione/azienda.njk', { azienda, utenti: utenti.items, labels, superadmin: isSuperadmin(ctx), canEdit: hasRole(ctx.state.user, ['superadmin']) });
  });
  router.get('/organizzazione/:cod/modifica', staff(['superadmin']), async (ctx) => renderAziendaForm(ctx, 'edit', await loadAzienda(ctx)));
  router.post('/organizzazione/:cod/modifica', staff(['superadmin']), async (ctx) => {
    const azienda = await loadAzienda(ctx);
    const { cod_azienda: _ignored, ...form } = aziendaFromForm(formBody(ctx));
    const parsed = aziendaUpdateSchema.safeParse(form);
    if (!parsed.success) return renderAziendaForm(ctx, 'edit', { ...form, cod_azienda: azienda.cod_azienda }, fieldErrors(parsed.error), 422);
    await inScope(ctx, (trx) => updateAzienda(trx, azienda.cod_azienda, parsed.data, actor(ctx)));
    redirectWithFlash(ctx, `/organizzazione/${azienda.cod_azienda}`, 'success', 'Azienda aggiornata');
  });
  router.post('/organizzazione/:cod/toggle', staff(['superadmin']), async (ctx) => {
    const azienda = await loadAzienda(ctx);
    const row = await inScope(ctx, (trx) => updateAzienda(trx, azienda.cod_azienda, { attiva: !azienda.attiva }, actor(ctx)));
    if (!row.attiva) await endTenantSessions(deps.platformDb, sessions, row.cod_azienda, actor(ctx));
    redirectWithFlash(ctx, `/organizzazione/${row.cod_azienda}`, 'success', row.attiva ? 'Azienda riattivata' : 'Azienda disattivata: i suoi utenti non possono più accedere');
  });
};
