import { z } from 'zod';
import { tenantOf } from '../../http/auth';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import type { Ctx } from '../../http/render';
import { exportSos } from './export/sos.export';
import { SOS_ACCESS } from './sos.routes';

const formatQuery = z.object({ formato: z.enum(['xml', 'pdf'], { message: 'Formato non valido: xml o pdf' }).default('pdf') });

/**
 * The SOS dossier downloads (spec: GET /api/dossier/sos/:codSegnalazione and its page twin): the
 * report as validated XML or PDF, only for who may see the report (the database decides).
 */
export const registerSosDossier: RegisterRoutes = (router, { deps }) => {
  const send = async (ctx: Ctx, formato: 'xml' | 'pdf') => {
    const out = await exportSos(deps, tenantOf(ctx), ctx.state.user!, ctx.params.codSegnalazione!, formato);
    ctx.set('Content-Disposition', `attachment; filename="${out.fileName}"`);
    ctx.set('Cache-Control', 'no-store');
    if (out.validation) ctx.set('X-Schema-Validation', out.validation);
    ctx.type = out.type;
    ctx.body = out.body;
  };
  router.api({
    method: 'GET', path: '/api/dossier/sos/:codSegnalazione', summary: 'Scarica la segnalazione (XML validato sullo schema pubblicato, o PDF)', tag: 'Segnalazioni SOS',
    access: staff(SOS_ACCESS), query: formatQuery,
    handler: async (ctx, { query }) => { await send(ctx, query.formato); },
  });
  router.get('/dossier/sos/:codSegnalazione', staff(SOS_ACCESS), async (ctx) => {
    const parsed = formatQuery.safeParse(ctx.query);
    await send(ctx, parsed.success ? parsed.data.formato : 'pdf');
  });
};
