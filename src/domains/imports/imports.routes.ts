import { PassThrough } from 'node:stream';
import type { Deps } from '../../deps';
import { withTenant } from '../../db/tenant';
import { tenantOf } from '../../http/auth';
import { notFound, ValidationError } from '../../http/errors';
import type { ApiCtx } from '../../http/api-route';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { isUuid } from '../../kit/ids';
import { STAFF_READ, type Role } from '../../kit/roles';
import { CSV_BOM, csvLine } from '../../lib/csv';
import { createImport, mb, receiveUpload } from './imports.commands';
import { getImportJob, importErrors, type ImportJobRow } from './imports.repo';
import { importJobResponse, importTipoParam } from './imports.schemas';

/** Who may load data: the roles that create customers and relationships. */
export const IMPORTERS: Role[] = ['admin', 'co', 'analyst'];
const tag = 'Importazioni';

// The batch ledger is the engine's bookkeeping, not part of the job's answer.
export const jobView = (deps: Deps, { lotti_scritti: _ledger, ...j }: ImportJobRow) => ({
  ...j, workflow_url: deps.temporal.webUiLink(j.workflow_id), errori_url: `/api/import/${j.id}/errori.csv`,
});

/** The job of the caller's tenant, or 404 (another tenant's is invisible under row-level security). */
export async function loadJob(deps: Deps, ctx: ApiCtx, id: string): Promise<ImportJobRow> {
  const job = isUuid(id) ? await withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, (trx) => getImportJob(trx, id)) : undefined;
  if (!job) throw notFound('Importazione');
  return job;
}

/** The row-by-row error report as CSV (row, column, message), streamed from the table. */
export function sendErrorReport(deps: Deps, ctx: ApiCtx, job: ImportJobRow): void {
  const out = new PassThrough();
  ctx.type = 'text/csv; charset=utf-8';
  ctx.set('Content-Disposition', `attachment; filename="errori-importazione-${job.id}.csv"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = out;
  const read = <T>(fn: (trx: import('knex').Knex.Transaction) => Promise<T>) => withTenant(deps.db, { codAzienda: job.cod_azienda, actor: ctx.state.user!.username }, fn);
  void (async () => {
    out.write(CSV_BOM + csvLine(['Riga', 'Colonna', 'Errore']));
    for await (const page of importErrors(read, job.id)) {
      if (!out.write(page.map((e) => csvLine([e.riga, e.colonna, e.messaggio])).join(''))) await new Promise((r) => out.once('drain', r));
    }
    out.end();
  })().catch((err: unknown) => { deps.logger.error({ err, importId: job.id }, 'error report failed'); out.destroy(err as Error); });
}

/** POST /api/import/:tipo (multipart upload), the progress of a job, and its error report. */
export const registerImportRoutes: RegisterRoutes = (router, { deps }) => {
  router.api({
    method: 'POST', path: '/api/import/:tipo', tag, access: staff(IMPORTERS), multipart: true, status: 202, response: importJobResponse,
    summary: `Importa clienti, rapporti o movimenti da un file CSV o XLSX (multipart/form-data, campo "file"; al massimo ${mb(deps.config.importMaxBytes)}). Tipo letto dal contenuto (415 se non è CSV UTF-8 o XLSX), 413 oltre il limite. L'importazione è un processo durevole: 202 con l'avanzamento in GET /api/import/:id. Modulo HTML: ?_csrf=, client API: X-CSRF-Token`,
    handler: async (ctx, { params }) => {
      const tipo = importTipoParam.safeParse(params.tipo);
      if (!tipo.success) throw new ValidationError([{ path: 'tipo', message: tipo.error.issues[0]!.message }]);
      const upload = await receiveUpload(deps, ctx);
      const job = await createImport(deps, tenantOf(ctx), ctx.state.user!.username, tipo.data, upload);
      ctx.set('Location', `/api/import/${job.id}`);
      return jobView(deps, job);
    },
  });

  router.api({
    method: 'GET', path: '/api/import/:id', tag, access: staff(STAFF_READ), response: importJobResponse,
    summary: 'Avanzamento di un\'importazione: righe lette, valide, importate, già presenti, con errori',
    handler: async (ctx, { params }) => jobView(deps, await loadJob(deps, ctx, params.id!)),
  });

  router.api({
    method: 'GET', path: '/api/import/:id/errori.csv', tag, access: staff(STAFF_READ),
    summary: 'Rapporto degli errori riga per riga (CSV: riga, colonna, errore)',
    handler: async (ctx, { params }) => {
      sendErrorReport(deps, ctx, await loadJob(deps, ctx, params.id!));
      return undefined;
    },
  });
};
