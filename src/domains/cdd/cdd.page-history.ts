import { tenantOf } from '../../http/auth';
import { render } from '../../http/render';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { STAFF_READ } from '../../kit/roles';
import { cddPageKit, PAGE_LABELS } from './cdd.page-context';
import { customerReviews } from './cdd.page-reads';
import { cddHistoryForCustomer } from './cdd-task.repo';

/** The customer's CDD history (every task, newest first, and the periodic reviews), reached from one of its tasks. */
export const registerCddHistoryPage: RegisterRoutes = (router, services) => {
  const { views } = services;
  const { tx, loadTask } = cddPageKit(services);

  router.get('/cdd/history/:codPratica', staff(STAFF_READ), async (ctx) => {
    const data = await tx(ctx, async (trx) => {
      const { t, customer } = await loadTask(ctx, trx, ctx.params.codPratica!);
      // One after the other: a transaction's queries share one connection.
      const history = await cddHistoryForCustomer(trx, t.cod_anagrafe);
      const reviews = await customerReviews(trx, tenantOf(ctx), t.cod_anagrafe);
      return { t, customer, history, reviews };
    });
    render(ctx, views, 'cdd/history.njk', { ...data, labels: PAGE_LABELS });
  });
};
