import type { Knex } from 'knex';
import { z } from 'zod';
import { tenantOf } from '../../http/auth';
import { isHtmx, render, type Ctx } from '../../http/render';
import { fieldErrors } from '../../http/validate';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { listParamsShape, runList, tenantScope, type ListRequest } from '../../kit/list';
import { rolesFor } from '../../kit/process';
import { STAFF_READ } from '../../kit/roles';
import { userNames } from '../../kit/users';
import { CDD_LIVELLI, CDD_MOTIVI } from '../../../workflows/cdd/cdd-task.contract';
import { cddTaskMachine, CDD_OPEN_STATES, CDD_TASK_STATES } from '../../../workflows/cdd/cdd-task.machine';
import { cddCharts, cddCounts, cddWeeklyChart, openCount } from './cdd.page-charts';
import { cddPageKit, isOverdue, PAGE_LABELS } from './cdd.page-context';
import { customerNames } from './cdd.page-reads';
import { cddTasksList } from './cdd-task.list';
import { cddReviewsList } from './cdd-review.list';
import type { CddTaskRow } from './cdd-task.repo';

/** A select of the filter form: empty is no filter; anything else must be one of its values. */
const choice = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
const bool = z.enum(['true', 'false'], { message: 'Valore non valido' }).transform((v) => v === 'true');

/** The page's query: the list's filters as the form sends them. */
const listQuery = z.object({
  stato: choice(z.enum(CDD_TASK_STATES, { message: 'Stato non valido' })),
  livello: choice(z.enum(CDD_LIVELLI, { message: 'Livello non valido' })),
  motivo: choice(z.enum(CDD_MOTIVI, { message: 'Motivo non valido' })),
  assegnatario: choice(z.union([z.uuid(), z.literal('me')], { message: 'Assegnatario non valido' })),
  scadute: choice(bool),
  aperte: choice(bool),
  q: z.string().trim().max(200, 'Massimo 200 caratteri').optional().transform((v) => v || undefined),
  ...listParamsShape(cddTasksList),
});

/** How far ahead the refresh queue looks: the overdue reviews always, and those coming due in the window. */
const WINDOWS = {
  tutte: 'Scadute e in scadenza entro 30 giorni', scadute: 'Solo scadute', entro30: 'In scadenza entro 30 giorni', entro90: 'Scadute e in scadenza entro 90 giorni',
} as const;
type Window = keyof typeof WINDOWS;
/** Each window as the list's filters; `scadute` and `entro30` are what the home's two tiles count. */
const WINDOW_FILTERS: Record<Window, { stato?: 'scaduta' | 'programmata'; entro_giorni?: number }> = {
  tutte: { entro_giorni: 30 }, scadute: { stato: 'scaduta' }, entro30: { stato: 'programmata', entro_giorni: 30 }, entro90: { entro_giorni: 90 },
};
const queueQuery = z.object({
  finestra: choice(z.enum(Object.keys(WINDOWS) as [Window, ...Window[]])).transform((v): Window => v ?? 'tutte'),
  ...listParamsShape(cddReviewsList),
});

/** The queue's window as the list's filters. */
function queueRequest(q: z.infer<typeof queueQuery>): ListRequest {
  const req = { ...q, ...WINDOW_FILTERS[q.finestra] };
  return req;
}

/** The customers' open tasks among a page's customers: the queue links them instead of offering a second start. */
async function openTasksOf(trx: Knex.Transaction, codAzienda: string, codes: string[]): Promise<Record<string, Pick<CddTaskRow, 'id' | 'cod_pratica'>>> {
  if (!codes.length) return {};
  const rows = await trx('cdd_pratiche').where('cod_azienda', codAzienda).whereIn('cod_anagrafe', codes).whereIn('stato', CDD_OPEN_STATES)
    .select('id', 'cod_pratica', 'cod_anagrafe');
  return Object.fromEntries(rows.map((r: { id: string; cod_pratica: string; cod_anagrafe: string }) => [r.cod_anagrafe, { id: r.id, cod_pratica: r.cod_pratica }]));
}

/** The lists of the CDD area: tasks (with their charts), the overview, the periodic reviews due. */
export const registerCddListPages: RegisterRoutes = (router, services) => {
  const { views } = services;
  const { tx } = cddPageKit(services);
  const starters = rolesFor(cddTaskMachine, 'start');

  router.get('/cdd', staff(STAFF_READ), async (ctx: Ctx) => {
    const parsed = listQuery.safeParse(ctx.query);
    // A filter the form cannot send (a hand-edited address) is dropped with its message; the list still answers.
    const q = parsed.success ? parsed.data : listQuery.parse({});
    const errors = parsed.success ? {} : fieldErrors(parsed.error);
    const tenant = tenantOf(ctx);
    const me = ctx.state.user!.cod_utente;
    const { result, names, customers, charts } = await tx(ctx, async (trx) => {
      const req: typeof q = { ...q, assegnatario: q.assegnatario === 'me' ? me : q.assegnatario };
      const page = await runList<CddTaskRow>(trx, cddTasksList, tenantScope(tenant), req);
      return {
        result: page,
        names: await userNames(trx, page.items.map((t) => t.assegnatario)),
        customers: await customerNames(trx, tenant, page.items.map((t) => t.cod_anagrafe)),
        // The charts count the whole tenant; an htmx filter swaps only the table, so it does not read them.
        charts: isHtmx(ctx) ? undefined : cddCharts(await cddCounts(trx, tenant)),
      };
    });
    const overdue = Object.fromEntries(result.items.map((t) => [t.id, isOverdue(t)]));
    const filters = {
      q: q.q ?? '', stato: q.stato ?? '', livello: q.livello ?? '', motivo: q.motivo ?? '', assegnatario: q.assegnatario ?? '',
      scadute: q.scadute === undefined ? '' : String(q.scadute), aperte: q.aperte === undefined ? '' : String(q.aperte), sort: q.sort,
    };
    const actions = [
      { label: 'Panoramica', href: '/cdd/overview', variant: 'outline-primary' },
      { label: 'Revisioni periodiche', href: '/cdd/refresh-queue', variant: 'outline-primary' },
      ...(ctx.state.user!.ruoli.some((r) => starters.includes(r)) ? [{ label: 'Nuova verifica', href: '/cdd/nuovo', variant: 'primary' }] : []),
    ];
    render(ctx, views, 'cdd/list.njk', { result, names, customers, overdue, filters, errors, charts, actions, labels: PAGE_LABELS }, { fragment: 'cdd/_table.njk' });
  });

  router.get('/cdd/overview', staff(STAFF_READ), async (ctx) => {
    const tenant = tenantOf(ctx);
    const data = await tx(ctx, async (trx) => {
      const counts = await cddCounts(trx, tenant);
      const reviews = trx('cdd_reviews').where('cod_azienda', tenant);
      const [late, soon] = await Promise.all([
        reviews.clone().where('stato', 'scaduta').count<{ n: string }[]>({ n: '*' }),
        reviews.clone().where('stato', 'programmata').where('due_at', '<=', trx.raw("now() + interval '30 days'")).count<{ n: string }[]>({ n: '*' }),
      ]);
      return { counts, weekly: await cddWeeklyChart(trx, tenant), lateReviews: Number(late[0]!.n), soonReviews: Number(soon[0]!.n) };
    });
    const open = openCount(data.counts);
    const kpis = [
      { key: 'aperte', label: 'Verifiche in corso', value: open, href: '/cdd?aperte=true', tone: '' },
      { key: 'scadute', label: 'Verifiche scadute', value: data.counts.overdue, href: '/cdd?scadute=true', tone: 'red' },
      { key: 'revisioni-scadute', label: 'Revisioni periodiche scadute', value: data.lateReviews, href: '/cdd/refresh-queue?finestra=scadute', tone: 'red' },
      { key: 'revisioni-30', label: 'Revisioni in scadenza entro 30 giorni', value: data.soonReviews, href: '/cdd/refresh-queue?finestra=entro30', tone: 'orange' },
    ];
    render(ctx, views, 'cdd/overview.njk', { kpis, charts: { ...cddCharts(data.counts), weekly: data.weekly }, labels: PAGE_LABELS });
  });

  router.get('/cdd/refresh-queue', staff(STAFF_READ), async (ctx) => {
    const parsed = queueQuery.safeParse(ctx.query);
    const q = parsed.success ? parsed.data : queueQuery.parse({});
    const tenant = tenantOf(ctx);
    const data = await tx(ctx, async (trx) => {
      const result = await runList<{ id: string; cod_anagrafe: string; due_at: Date; stato: string; classe_rischio: string | null }>(
        trx, cddReviewsList, tenantScope(tenant), queueRequest(q),
      );
      const codes = result.items.map((r) => r.cod_anagrafe);
      return { result, customers: await customerNames(trx, tenant, codes), openTasks: await openTasksOf(trx, tenant, codes) };
    });
    render(ctx, views, 'cdd/refresh-queue.njk', {
      ...data, windows: WINDOWS, filters: { finestra: q.finestra, sort: q.sort }, labels: PAGE_LABELS,
      canStart: ctx.state.user!.ruoli.some((r) => starters.includes(r)),
    }, { fragment: 'cdd/_refresh_table.njk' });
  });
};
