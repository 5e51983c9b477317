import type { Knex } from 'knex';
import type { z } from 'zod';
import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { HttpError, ValidationError } from '../../../http/errors';
import { redirectWithFlash, type Ctx } from '../../../http/render';
import { fieldErrors } from '../../../http/validate';
import { staff } from '../../../kit/access';
import type { AppServices, RegisterRoutes } from '../../../kit/area';
import { renderVerification } from '../console/console.pages';
import { addEdge, addNode, calculateUbo, requireKyb, type StructureActor } from './structure.commands';
import { STRUCTURE_EDITORS } from './structure.roles';
import { calculateSchema, createEdgeSchema, createNodeSchema } from './structure.schemas';

const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});
type StructureForm = 'struttura-nodo' | 'struttura-arco' | 'struttura-calcolo';

/**
 * The structure's forms on the KYB page (CSRF checked by the app before these run): add a node,
 * add an edge, compute the owners. The API's commands decide; bad input and refusals come back
 * next to their fields on the KYB page with what was typed; success redirects to the section.
 */
export const registerStructurePages: RegisterRoutes = (router, services: AppServices) => {
  const { deps } = services;
  const handle = async <S extends z.ZodType>(ctx: Ctx, form: StructureForm, schema: S, act: (trx: Knex.Transaction, codAzienda: string, actor: StructureActor, input: z.infer<S>) => Promise<string>) => {
    const cod = ctx.params.cod_verifica!;
    const values = Object.fromEntries(Object.entries(formBody(ctx)).filter(([k]) => k !== '_csrf').map(([k, v]) => [k, String(v ?? '')]));
    // Empty fields are "not given", as the API reads an absent member.
    const input = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''));
    const again = (errors: Record<string, string>) => renderVerification(ctx, services, 'kyb', cod, { form, errors, values }, 422);
    const parsed = schema.safeParse(input);
    if (!parsed.success) return again(fieldErrors(parsed.error));
    const codAzienda = tenantOf(ctx);
    const actor = { id: ctx.state.user!.cod_utente, username: ctx.state.user!.username };
    let done: string;
    try {
      done = await withTenant(deps.db, { codAzienda, actor: actor.username }, (trx) => act(trx, codAzienda, actor, parsed.data));
    } catch (err) {
      if (!(err instanceof HttpError) || err.status === 404 || err.status >= 500) throw err;
      if (err instanceof ValidationError && err.errors.length) return again(Object.fromEntries(err.errors.map((x) => [x.path || '_form', x.message])));
      return again({ _form: err.detail ?? err.title });
    }
    redirectWithFlash(ctx, `/admin/kyb/${cod}#struttura`, 'success', done);
  };

  router.post('/admin/kyb/:cod_verifica/struttura/nodi', staff(STRUCTURE_EDITORS), (ctx) => handle(ctx, 'struttura-nodo', createNodeSchema, async (trx, codAzienda, actor, body) => {
    const n = await addNode(trx, codAzienda, actor, await requireKyb(trx, codAzienda, ctx.params.cod_verifica!), body);
    return `${n.denominazione} aggiunto alla struttura`;
  }));
  router.post('/admin/kyb/:cod_verifica/struttura/archi', staff(STRUCTURE_EDITORS), (ctx) => handle(ctx, 'struttura-arco', createEdgeSchema, async (trx, codAzienda, actor, body) => {
    await addEdge(trx, codAzienda, actor, await requireKyb(trx, codAzienda, ctx.params.cod_verifica!), body);
    return 'Legame aggiunto alla struttura';
  }));
  router.post('/admin/kyb/:cod_verifica/struttura/calcola', staff(STRUCTURE_EDITORS), (ctx) => handle(ctx, 'struttura-calcolo', calculateSchema, async (trx, codAzienda, actor, body) => {
    const c = await calculateUbo(trx, codAzienda, actor, await requireKyb(trx, codAzienda, ctx.params.cod_verifica!), body.soglia);
    const n = c.risultato.italiano.titolari.length;
    return `Titolari effettivi calcolati: ${n} con il metodo italiano${c.discrepanza_ubo ? '; ci sono difformità rispetto a quelli dichiarati' : ''}`;
  }));
};
