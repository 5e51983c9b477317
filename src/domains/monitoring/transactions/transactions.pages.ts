import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { notFound } from '../../../http/errors';
import { render, type Ctx } from '../../../http/render';
import { fieldErrors } from '../../../http/validate';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { isUuid } from '../../../kit/ids';
import { STAFF_READ } from '../../../kit/roles';
import { listMovements, listMovementsQuery, movementsByIds, SEGNO_LABELS, SEGNO_TONES } from '../../movements';
import { getCustomer } from '../../records';
import { alertsOfMovement } from '../alerts/alerts.repo';
import { STATO_LABELS, STATO_TONES, TIPOLOGIA_LABELS } from '../monitoring.labels';
import { traceOfMovement } from '../evaluation/trace';
import { TRACE_LABELS } from '../evaluation/evaluation.labels';

const FILTERS = ['cod_anagrafe', 'cod_rapporto', 'dal', 'al', 'importo_min', 'importo_max', 'contanti', 'segno'] as const;
const labels = { segno: SEGNO_LABELS, segnoTone: SEGNO_TONES, stato: STATO_LABELS, statoTone: STATO_TONES, tipologia: TIPOLOGIA_LABELS };

/**
 * The movements as monitoring reads them (/transazioni): the movements area's list with its
 * filters (customer, relationship, dates, amount band, cash, sign), and one movement with the
 * alerts it is behind. A filter that cannot be read shows its message next to it and is left out.
 */
export const registerTransactionPages: RegisterRoutes = (router, { deps, views }) => {
  const tx = <T>(ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

  router.get('/transazioni', staff(STAFF_READ), async (ctx) => {
    const raw = ctx.query as Record<string, unknown>;
    const parsed = listMovementsQuery.safeParse(raw);
    const errors = parsed.success ? {} : fieldErrors(parsed.error);
    // The filters that can be read still apply; the others are shown back with their message.
    const usable = Object.fromEntries(Object.entries(raw).filter(([k]) => !errors[k]));
    const q = parsed.success ? parsed.data : listMovementsQuery.safeParse(usable).data ?? listMovementsQuery.parse({});
    const result = await tx(ctx, (trx) => listMovements(trx, tenantOf(ctx), q));
    const shown = Object.fromEntries(FILTERS.map((k) => [k, typeof raw[k] === 'string' ? raw[k] as string : ''])) as Record<string, string>;
    const filters = { ...shown, sort: q.sort };
    const exportQuery = new URLSearchParams(FILTERS.filter((k) => !errors[k] && shown[k]).map((k): [string, string] => [k, shown[k]!])).toString();
    render(ctx, views, 'transazioni/list.njk', { result, filters, errors, labels, exportQuery: exportQuery + (q.sort ? `${exportQuery ? '&' : ''}sort=${q.sort}` : '') },
      { fragment: 'transazioni/_table.njk' });
  });

  router.get('/transazioni/:id', staff(STAFF_READ), async (ctx) => {
    const id = ctx.params.id!;
    if (!isUuid(id)) throw notFound('Operazione');
    const codAzienda = tenantOf(ctx);
    const d = await tx(ctx, async (trx) => {
      const [m] = await movementsByIds(trx, codAzienda, [id]);
      if (!m) return undefined;
      return {
        m, customer: await getCustomer(trx, m.cod_anagrafe), alerts: await alertsOfMovement(trx, codAzienda, m.id),
        // The monitoring's decision on it, with its trace (docs/monitoring.md, "Real time"); null while pending.
        trace: (await traceOfMovement(trx, codAzienda, m.id, m.data_operazione)) ?? null,
      };
    });
    if (!d) throw notFound('Operazione');
    render(ctx, views, 'transazioni/detail.njk', { ...d, labels: { ...labels, ...TRACE_LABELS } });
  });
};
