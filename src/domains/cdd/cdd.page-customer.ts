import { tenantOf } from '../../http/auth';
import { notFound } from '../../http/errors';
import { render } from '../../http/render';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { STAFF_READ, type Role } from '../../kit/roles';
import { allowedFor, cddPageKit, PAGE_LABELS, peopleNames } from './cdd.page-context';
import { customerReviews } from './cdd.page-reads';
import { cddEvidence, cddHistoryForCustomer } from './cdd-task.repo';
import { EXECUTORS } from './cdd.page-task';

/**
 * Who may download an evidence file: those who work or review tasks, and the internal auditor.
 * A viewer sees that a file exists, not its content (documents of identity, bank statements).
 */
export const EVIDENCE_READERS: Role[] = ['co', 'analyst', 'admin', 'sos', 'auditor'];

/**
 * The task's evidence (list and download) and the customer's CDD history, both reached from a
 * task by its code ('CDD-000001', or its id).
 */
export const registerCddCustomerPages: RegisterRoutes = (router, services) => {
  const { deps, views } = services;
  const { tx, loadTask } = cddPageKit(services);

  router.get('/cdd/evidence/:codPratica', staff(STAFF_READ), async (ctx) => {
    const data = await tx(ctx, async (trx) => {
      const { t, customer } = await loadTask(ctx, trx, ctx.params.codPratica!);
      const evidence = await cddEvidence(trx, t.id);
      return { t, customer, evidence, names: await peopleNames(trx, evidence.map((e) => e.created_by)) };
    });
    const user = ctx.state.user!;
    render(ctx, views, 'cdd/evidence.njk', {
      ...data, labels: PAGE_LABELS,
      canDownload: user.ruoli.some((r) => EVIDENCE_READERS.includes(r)),
      canAddEvidence: data.t.stato === 'in_progress' && user.ruoli.some((r) => EXECUTORS.includes(r)) && allowedFor(ctx, data.t).includes('review'),
    });
  });

  router.get('/cdd/evidence/:codPratica/:evidenceId', staff(EVIDENCE_READERS), async (ctx) => {
    const { t, e } = await tx(ctx, async (trx) => {
      const { t } = await loadTask(ctx, trx, ctx.params.codPratica!);
      const e = (await cddEvidence(trx, t.id)).find((x) => x.id === ctx.params.evidenceId);
      return { t, e };
    });
    if (!e?.sha256) throw notFound('Evidenza');
    const bytes = await deps.documents.get(tenantOf(ctx), e.sha256);
    ctx.set('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(e.nome_file ?? `${t.cod_pratica}-evidenza`)}`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = e.mime ?? 'application/octet-stream';
    ctx.body = bytes;
  });

  router.get('/cdd/history/:codPratica', staff(STAFF_READ), async (ctx) => {
    const data = await tx(ctx, async (trx) => {
      const { t, customer } = await loadTask(ctx, trx, ctx.params.codPratica!);
      const [history, reviews] = await Promise.all([cddHistoryForCustomer(trx, t.cod_anagrafe), customerReviews(trx, tenantOf(ctx), t.cod_anagrafe)]);
      return { t, customer, history, reviews };
    });
    render(ctx, views, 'cdd/history.njk', { ...data, labels: PAGE_LABELS });
  });
};
