import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { HttpError } from '../../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../../http/render';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { RULE_EDITORS } from '../monitoring.access';
import { ORIGINE_LISTA_LABELS, ORIGINE_LISTA_TONES, TIPO_LISTA_LABELS } from '../evaluation/evaluation.labels';
import { createTenantList, listDetail, updateTenantList } from './lists.commands';
import { allLists } from './lists.repo';
import { createListSchema, updateListSchema } from './lists.schemas';

const BASE = '/monitoraggio/liste';
const labels = { tipo: TIPO_LISTA_LABELS, origine: ORIGINE_LISTA_LABELS, origineTone: ORIGINE_LISTA_TONES };
/** One entry a line (a textarea), as the API's list of entries. */
const lines = (v: unknown) => (typeof v === 'string' ? v.split(/\r?\n/).map((l) => l.trim()).filter(Boolean) : []);
const fieldErrors = (err: unknown): Record<string, string> | undefined => {
  if (err instanceof HttpError && err.status === 422) {
    const list = (err.extra.errors ?? []) as { path: string; message: string }[];
    return Object.fromEntries(list.map((e) => [e.path.split('.')[0]!, e.path.includes('.') ? `Riga ${Number(e.path.split('.')[1]) + 1}: ${e.message}` : e.message]));
  }
  return undefined;
};

/**
 * /monitoraggio/liste: the named lists the rules read (reference lists, read-only, and the tenant's
 * own), each list's entries and versions, and the forms of the compliance officer and the admin:
 * a new list, a new version (entries to add and remove, one a line, with the reason).
 */
export const registerListPages: RegisterRoutes = (router, { deps, views }) => {
  const tx = <T>(ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);
  const canEdit = (ctx: Ctx) => ctx.state.user!.ruoli.some((r) => RULE_EDITORS.includes(r));
  const body = (ctx: Ctx) => (ctx.request as unknown as { body?: Record<string, string> }).body ?? {};

  const listsPage = async (ctx: Ctx, form: Record<string, string> = {}, errors: Record<string, string> = {}, status = 200) => {
    const liste = await tx(ctx, (trx) => allLists(trx, tenantOf(ctx)));
    render(ctx, views, 'monitoring/lists.njk', { liste, labels, canEdit: canEdit(ctx), form, errors }, { status });
  };

  router.get(BASE, staff(STAFF_READ), (ctx) => listsPage(ctx));

  router.post(BASE, staff(RULE_EDITORS), async (ctx) => {
    const raw = body(ctx);
    const form = { codice: raw.codice ?? '', nome: raw.nome ?? '', tipo: raw.tipo ?? '', descrizione: raw.descrizione ?? '', voci: raw.voci ?? '' };
    const parsed = createListSchema.safeParse({ ...form, voci: lines(form.voci) });
    if (!parsed.success) return listsPage(ctx, form, Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])), 422);
    try {
      const list = await tx(ctx, (trx) => createTenantList(trx, tenantOf(ctx), ctx.state.user!.username, parsed.data));
      redirectWithFlash(ctx, `${BASE}/${list.codice}`, 'success', `Lista «${list.nome}» creata`);
    } catch (err) {
      const errors = fieldErrors(err);
      if (errors) return listsPage(ctx, form, errors, 422);
      throw err;
    }
  });

  const listPage = async (ctx: Ctx, form: Record<string, string> = {}, errors: Record<string, string> = {}, status = 200) => {
    const lista = await tx(ctx, (trx) => listDetail(trx, tenantOf(ctx), ctx.params.codice!));
    render(ctx, views, 'monitoring/list.njk', { lista, labels, canEdit: canEdit(ctx) && lista.origine === 'tenant', form, errors }, { status });
  };

  router.get(`${BASE}/:codice`, staff(STAFF_READ), (ctx) => listPage(ctx));

  router.post(`${BASE}/:codice`, staff(RULE_EDITORS), async (ctx) => {
    const raw = body(ctx);
    const form = { aggiungi: raw.aggiungi ?? '', rimuovi: raw.rimuovi ?? '', motivazione: raw.motivazione ?? '' };
    const add = lines(form.aggiungi);
    const remove = lines(form.rimuovi);
    const parsed = updateListSchema.safeParse({ ...(add.length ? { aggiungi: add } : {}), ...(remove.length ? { rimuovi: remove } : {}), motivazione: form.motivazione });
    if (!parsed.success) {
      return listPage(ctx, form, Object.fromEntries(parsed.error.issues.map((i) => [i.path[0] === 'voci' ? 'aggiungi' : String(i.path[0]), i.message])), 422);
    }
    try {
      const list = await tx(ctx, (trx) => updateTenantList(trx, tenantOf(ctx), ctx.state.user!.username, ctx.params.codice!, parsed.data));
      redirectWithFlash(ctx, `${BASE}/${list.codice}`, 'success', `Nuova versione della lista: v${list.versione_corrente}`);
    } catch (err) {
      const errors = fieldErrors(err);
      if (errors) return listPage(ctx, form, errors, 422);
      if (err instanceof HttpError && err.status === 409) return listPage(ctx, form, { form: err.detail ?? err.message }, 409);
      throw err;
    }
  });
};
