import { withPlatform, withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { notFound } from '../../../http/errors';
import type { Ctx } from '../../../http/render';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import type { Role } from '../../../kit/roles';
import { isSuperadmin } from '../../admin';
import { seedDetail, startSeed } from './seed.commands';
import { seedQuery, seedRecord, startSeedSchema } from './seed.schemas';

const tag = 'Motore decisionale';
/** Who fills a tenant with a demo year: its admin and compliance officer, or a superadmin naming the tenant. */
export const SEEDERS: Role[] = ['admin', 'co', 'superadmin'];

/** The tenant the request is about: one's own, or for a superadmin the one named (unknown: 404), as the admin settings do. */
async function seedTenant(platformDb: Parameters<typeof withPlatform>[0], ctx: Ctx, requested?: string): Promise<string> {
  if (!isSuperadmin(ctx)) {
    const own = tenantOf(ctx);
    if (requested && requested !== own) throw notFound('Azienda');
    return own;
  }
  const cod = requested || tenantOf(ctx);
  const exists = await withPlatform(platformDb, ctx.state.user!.username, (trx) => trx('aziende').where({ cod_azienda: cod }).first('cod_azienda'));
  if (!exists) throw notFound('Azienda');
  return cod;
}

/** POST /api/engine/seed and its progress (docs/monitoring.md, "The generator and the seed"). */
export const registerSeedRoutes: RegisterRoutes = (router, { deps }) => {
  router.api({
    method: 'POST', path: '/api/engine/seed',
    summary: "Riempie un tenant dimostrativo con un anno generato (clienti con profilo dichiarato, rapporti, movimenti con tipologie note, trasferimenti cripto) attraverso le importazioni, mette in vigore i modelli e riesegue l'anno: 202 con il lavoro",
    tag, access: staff(SEEDERS), body: startSeedSchema, response: seedRecord, status: 202,
    handler: async (ctx, { body }) => {
      const codAzienda = await seedTenant(deps.platformDb, ctx, body.cod_azienda);
      const actor = ctx.state.user!.username;
      const job = await startSeed(deps, { codAzienda, actor, clienti: body.clienti, seed: body.seed, mesi: body.mesi });
      return withTenant(deps.db, { codAzienda, actor }, (trx) => seedDetail(trx, codAzienda, job.id));
    },
  });

  router.api({
    method: 'GET', path: '/api/engine/seed/:id', summary: "Un anno dimostrativo: stato, fase, avanzamento delle importazioni e della riesecuzione, cosa ha prodotto", tag,
    access: staff(SEEDERS), query: seedQuery, response: seedRecord,
    handler: async (ctx, { params, query }) => {
      const codAzienda = await seedTenant(deps.platformDb, ctx, query.cod_azienda);
      return withTenant(deps.db, { codAzienda, actor: ctx.state.user!.username }, (trx) => seedDetail(trx, codAzienda, params.id!));
    },
  });
};
