import { hasRole, tenantOf } from '../../../http/auth';
import { notFound } from '../../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../../http/render';
import { fieldErrors } from '../../../http/validate';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { FAMIGLIE } from '../risk.types';
import { addFactor, changeFactor, ensureModel, formProblem, switchOffFactor } from './config.commands';
import { CONFIG_EDITORS, formBody, readTx, typed } from './config.access';
import { factorFormSchema, newFactorFormSchema } from './config.forms';
import { FAMIGLIA_LABELS } from './config.labels';
import { factorById, factorsWithUse, type FattoreRow } from './config.reads';

const familyOptions = [{ value: '', label: 'Scegli la famiglia…' }, ...FAMIGLIE.map((f) => ({ value: f, label: FAMIGLIA_LABELS[f] }))];

/**
 * /rischio/fattori: the risk factors by EBA family (EBA/GL/2021/02: customer, geography,
 * products/services/transactions, channels) with how many rules use each. A factor names and
 * groups rules; it is never deleted (past scores name it), only deactivated.
 */
export const registerFactorPages: RegisterRoutes = (router, { deps, views }) => {
  const renderList = async (ctx: Ctx, values: Record<string, string> = {}, errors: Record<string, string> = {}, status = 200, refusal?: string) => {
    const factors = await readTx(deps, ctx, async (trx) => {
      await ensureModel(trx, tenantOf(ctx));
      return factorsWithUse(trx);
    });
    const families = FAMIGLIE.map((f) => ({ famiglia: f, label: FAMIGLIA_LABELS[f], fattori: factors.filter((x) => x.famiglia === f) }));
    render(ctx, views, 'rischio/config/fattori.njk', {
      families, values, errors, refusal: refusal ?? null, familyOptions, canEdit: hasRole(ctx.state.user, CONFIG_EDITORS),
    }, { status });
  };

  const renderEdit = async (ctx: Ctx, f: FattoreRow, values: Record<string, string>, errors: Record<string, string> = {}, status = 200, refusal?: string) =>
    render(ctx, views, 'rischio/config/fattore.njk', {
      f, values, errors, refusal: refusal ?? null, familyOptions, famiglia: FAMIGLIA_LABELS, canEdit: hasRole(ctx.state.user, CONFIG_EDITORS),
    }, { status });

  const factorOf = async (ctx: Ctx) => {
    const f = await readTx(deps, ctx, (trx) => factorById(trx, ctx.params.id!));
    if (!f) throw notFound('Fattore', 'm');
    return f;
  };

  router.get('/rischio/fattori', staff(STAFF_READ), (ctx) => renderList(ctx));

  router.post('/rischio/fattori/nuovo', staff(CONFIG_EDITORS), async (ctx) => {
    const body = formBody(ctx);
    const parsed = newFactorFormSchema.safeParse(body);
    if (!parsed.success) return renderList(ctx, typed(body), fieldErrors(parsed.error), 422);
    try {
      await addFactor(deps, ctx, parsed.data);
    } catch (err) {
      const p = formProblem(err);
      return renderList(ctx, typed(body), p.errors, p.status, p.refusal);
    }
    redirectWithFlash(ctx, '/rischio/fattori', 'success', `Fattore «${parsed.data.nome}» creato: ora le regole della bozza possono usarlo`);
  });

  router.get('/rischio/fattori/:id', staff(STAFF_READ), async (ctx) => {
    const f = await factorOf(ctx);
    await renderEdit(ctx, f, { nome: f.nome, descrizione: f.descrizione, attivo: f.attivo ? '1' : '' });
  });

  router.post('/rischio/fattori/:id', staff(CONFIG_EDITORS), async (ctx) => {
    const f = await factorOf(ctx);
    const body = formBody(ctx);
    const parsed = factorFormSchema.safeParse(body);
    if (!parsed.success) return renderEdit(ctx, f, typed(body), fieldErrors(parsed.error), 422);
    try {
      await changeFactor(deps, ctx, f.id, parsed.data);
    } catch (err) {
      const p = formProblem(err);
      return renderEdit(ctx, f, typed(body), p.errors, p.status, p.refusal);
    }
    redirectWithFlash(ctx, '/rischio/fattori', 'success', `Fattore «${parsed.data.nome}» aggiornato`);
  });

  router.post('/rischio/fattori/:id/disattiva', staff(CONFIG_EDITORS), async (ctx) => {
    const f = await factorOf(ctx);
    try {
      await switchOffFactor(deps, ctx, f.id);
    } catch (err) {
      const p = formProblem(err);
      return renderEdit(ctx, f, { nome: f.nome, descrizione: f.descrizione, attivo: f.attivo ? '1' : '' }, p.errors, p.status, p.refusal);
    }
    redirectWithFlash(ctx, '/rischio/fattori', 'success', `Fattore «${f.nome}» disattivato: le nuove regole non potranno usarlo`);
  });
};
