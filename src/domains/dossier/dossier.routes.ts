import type { DossierAction } from '../../../workflows/dossier/dossier.machine';
import { dossierMachine } from '../../../workflows/dossier/dossier.machine';
import { withTenant } from '../../db/tenant';
import { tenantOf } from '../../http/auth';
import type { Ctx } from '../../http/render';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { rolesFor } from '../../kit/process';
import { DOSSIER_GENERATORS, DOSSIER_READERS } from './dossier.access';
import { listDossiers } from './dossier.repo';
import { dossierListResponse, dossierWriteResponse, downloadQuery, generateDossierSchema, listDossiersQuery, reasonSchema } from './dossier.schemas';
import { downloadDossier, generateDossier, transitionDossier, type DossierDownload } from './dossier.service';

const tag = 'Fascicoli';
const optionalBody = reasonSchema.optional().transform((v) => (v ?? {}) as { motivazione?: string });

/** Sends a dossier file: never cached, always an attachment. */
export function sendDownload(ctx: Ctx, out: DossierDownload) {
  ctx.set('Content-Disposition', `attachment; filename="${out.fileName}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.type = out.type;
  ctx.body = out.body;
}

/**
 * JSON API of customer dossiers (docs/dossier.md): reads from PostgreSQL, every change through
 * the dossier's workflow. The SOS dossier (/api/dossier/sos/...) is the SOS area's, under its
 * tipping-off rules; this list holds customer dossiers only.
 */
export const registerDossierRoutes: RegisterRoutes = (router, { deps }) => {
  router.api({
    method: 'GET', path: '/api/dossier', summary: 'Elenco dei fascicoli dei clienti (più recenti prima; cursore)', tag, access: staff(DOSSIER_READERS),
    query: listDossiersQuery, response: dossierListResponse,
    handler: (ctx, { query }) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, (trx) => listDossiers(trx, tenantOf(ctx), query)),
  });

  router.api({
    method: 'POST', path: '/api/dossier/generate', tag, access: staff(DOSSIER_GENERATORS), body: generateDossierSchema, response: dossierWriteResponse, status: 201,
    summary: 'Genera il fascicolo PDF di un cliente con le sezioni scelte: pagine numerate, data di generazione, SHA-256 in un manifesto firmato dalla piattaforma',
    handler: async (ctx, { body }) => {
      const view = await generateDossier(deps, tenantOf(ctx), ctx.state.user!, body);
      ctx.set('Location', `/dossier/${view.id}`);
      return view;
    },
  });

  const simple = (action: DossierAction, summary: string) => router.api({
    method: 'POST', path: `/api/dossier/:id/${action}`, summary, tag, access: staff(rolesFor(dossierMachine, action)), body: optionalBody, response: dossierWriteResponse,
    handler: (ctx, { params, body }) => transitionDossier(deps, tenantOf(ctx), ctx.state.user!, params.id!, { action, ...(body.motivazione ? { reason: body.motivazione } : {}) }),
  });
  simple('sign', 'Avvia la cerimonia di firma del fascicolo (processo figlio); la risposta porta signing_url');
  simple('complete-signing', 'Completa la firma (409 SIGNATURE_PENDING finché la cerimonia non è firmata)');
  simple('archive', 'Archivia il fascicolo (generato o firmato)');

  router.api({
    method: 'GET', path: '/api/dossier/download/:codAnagrafe', tag, access: staff(DOSSIER_READERS), query: downloadQuery,
    summary: 'Scarica il fascicolo del cliente (il più recente, o ?id=): PDF, o ?formato=manifest il manifesto firmato (JWS). Ogni download è registrato nell\'audit',
    handler: async (ctx, { params, query }) => {
      sendDownload(ctx, await downloadDossier(deps, tenantOf(ctx), ctx.state.user!, params.codAnagrafe!, query));
    },
  });
};
