import { rm } from 'node:fs/promises';
import { withTenant } from '../../db/tenant';
import { tenantOf } from '../../http/auth';
import { HttpError } from '../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import type { ApiCtx } from '../../http/api-route';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { STAFF_READ } from '../../kit/roles';
import { IMPORT_TIPI } from './import-kind';
import { IMPORT_KINDS } from './kinds';
import { createImport, mb, receiveUpload } from './imports.commands';
import { STATO_IMPORT_LABELS, STATO_IMPORT_TONES, TIPO_IMPORT_LABELS } from './imports.labels';
import { listImportJobs } from './imports.repo';
import { IMPORTERS, jobView, loadJob } from './imports.routes';
import { importTipoParam, listImportsQuery } from './imports.schemas';

const BASE = '/anagrafe/importa';
const labels = { tipo: TIPO_IMPORT_LABELS, stato: STATO_IMPORT_LABELS, tone: STATO_IMPORT_TONES };

/**
 * The import pages: the upload form with the tenant's imports (/anagrafe/importa), and one
 * import's progress (/anagrafe/importa/:id), refreshed by htmx while its workflow runs.
 */
export const registerImportPages: RegisterRoutes = (router, { deps, views }) => {
  const kinds = IMPORT_TIPI.map((t) => ({ tipo: t, label: TIPO_IMPORT_LABELS[t], columns: IMPORT_KINDS[t].columns }));

  const listPage = async (ctx: Ctx, form: { tipo?: string } = {}, errors: Record<string, string> = {}, status = 200) => {
    const parsed = listImportsQuery.safeParse(ctx.query);
    const query = parsed.success ? parsed.data : listImportsQuery.parse({});
    const page = await withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, (trx) => listImportJobs(trx, tenantOf(ctx), query));
    const canImport = ctx.state.user!.ruoli.some((r) => IMPORTERS.includes(r));
    render(ctx, views, 'anagrafe/importa.njk', { page, query: ctx.query, kinds, labels, form, errors, canImport, maxLabel: mb(deps.config.importMaxBytes) },
      { status, fragment: 'anagrafe/_importa_table.njk' });
  };

  router.get(BASE, staff(STAFF_READ), (ctx) => listPage(ctx));

  router.post(BASE, staff(IMPORTERS), async (ctx) => {
    let tipo: string | undefined;
    try {
      const upload = await receiveUpload(deps, ctx as ApiCtx);
      tipo = typeof upload.fields.tipo === 'string' ? upload.fields.tipo : undefined;
      const parsed = importTipoParam.safeParse(tipo);
      if (!parsed.success) {
        await rm(upload.path, { force: true });
        return await listPage(ctx, {}, { tipo: 'Scegli cosa importare: clienti, rapporti o movimenti' }, 422);
      }
      const job = await createImport(deps, tenantOf(ctx), ctx.state.user!.username, parsed.data, upload);
      redirectWithFlash(ctx, `${BASE}/${job.id}`, 'success', 'File ricevuto: l\'importazione è in corso');
    } catch (err) {
      if (!(err instanceof HttpError) || err.status >= 500) throw err;
      const message = (err.extra.errors as { message: string }[] | undefined)?.[0]?.message ?? err.detail ?? err.title;
      await listPage(ctx, { tipo }, { file: message }, err.status);
    }
  });

  router.get(`${BASE}/:id`, staff(STAFF_READ), async (ctx) => {
    const job = jobView(deps, await loadJob(deps, ctx as ApiCtx, String(ctx.params.id)));
    render(ctx, views, 'anagrafe/importa-dettaglio.njk', { job, labels, running: job.stato === 'in_coda' || job.stato === 'in_corso' },
      { fragment: 'anagrafe/_importa_progresso.njk' });
  });
};

