import type { Knex } from 'knex';
import { HttpError } from '../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import { MESSAGE_STATUSES } from '../../../workflows/outbox/outbox.contract';
import { adminListScope, inAdminScope, isSuperadmin } from '../admin';
import type { RegisterRoutes } from '../../kit/area';
import { retryMessage } from './outbox.commands';
import { MESSAGE_KINDS } from './outbox.enqueue';
import { KIND_LABELS, STATUS_LABELS } from './outbox.labels';
import { listOutbox } from './outbox.repo';
import { outboxListQuery } from './outbox.schemas';
import { staff } from '../../kit/access';

const PAGE = '/organizzazione/messaggi';
const OPERATORS = ['superadmin', 'admin'] as const;

/** The operators' view of the outbox: what left, what is still trying, what failed and why; "riprova" for the failed. */
export const registerOutboxPages: RegisterRoutes = (router, { deps, views }) => {
  const inScope = <T>(ctx: Ctx, fn: (trx: Knex.Transaction) => Promise<T>) => inAdminScope(deps, ctx, fn);

  router.get(PAGE, staff(OPERATORS), async (ctx) => {
    const parsed = outboxListQuery.safeParse(ctx.query);
    // A filter value that is not in the lists shows everything, with the filter reset.
    const q = parsed.success ? parsed.data : outboxListQuery.parse({});
    const result = await inScope(ctx, (trx) => listOutbox(trx, adminListScope(ctx), q));
    render(ctx, views, 'organizzazione/messaggi.njk', {
      result, superadmin: isSuperadmin(ctx),
      filters: { status: q.status ?? '', kind: q.kind ?? '', cod_azienda: q.cod_azienda ?? '', q: q.q ?? '', sort: q.sort },
      statusOptions: MESSAGE_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s].label })),
      kindOptions: MESSAGE_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] })),
      labels: { kind: KIND_LABELS, status: STATUS_LABELS },
    }, { fragment: 'organizzazione/_messaggi_table.njk' });
  });

  router.post(`${PAGE}/:id/riprova`, staff(OPERATORS), async (ctx) => {
    // Back to the list with its filters (only ours: the field is checked, never an open redirect).
    const filters = String((ctx.request as unknown as { body?: Record<string, unknown> }).body?.filtri ?? '');
    const back = /^\?[\w=&%.+@-]*$/.test(filters) ? `${PAGE}${filters}` : PAGE;
    try {
      const r = await inScope(ctx, (trx) => retryMessage(trx, ctx.params.id!, ctx.state.user!.username));
      await deps.dispatch([r.queued]);
    } catch (err) {
      if (err instanceof HttpError && err.status === 409) return redirectWithFlash(ctx, back, 'warning', err.detail ?? err.title);
      throw err;
    }
    redirectWithFlash(ctx, back, 'success', 'Messaggio rimesso in consegna');
  });
};
