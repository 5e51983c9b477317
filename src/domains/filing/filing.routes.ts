import { filingMachine, type FilingAction } from '../../../workflows/filing/filing.machine';
import { withTenant } from '../../db/tenant';
import { tenantOf } from '../../http/auth';
import { HttpError, ValidationError } from '../../http/errors';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { rolesFor } from '../../kit/process';
import { FILING_READERS } from './filing.access';
import { filingCsv } from './filing.csv';
import { listFilings } from './filing.repo';
import { receiveReturnFile } from './filing.return-upload';
import {
  classifyFilingSchema, createFilingSchema, editFilingSchema, emptySchema, filingDetailResponse,
  filingListResponse, filingWriteResponse, listFilingsQuery, previewQuery, previewResponse, reasonSchema, recordSubmissionSchema, rejectSchema,
} from './filing.schemas';
import {
  applyFilingTransition, createFiling, filingDetail, followUpFiling, previewFiling, reportOf, requireFiling,
} from './filing.service';
import { loadJurisdiction } from './goaml/jurisdiction-loader';

const tag = 'Segnalazioni regolamentari';

/**
 * /api/filing/create (POST, as the spec names it) is also what /api/filing/:id matches: another
 * method on it is a 405 with Allow, as on every path, not a filing called "create".
 */
function notTheCreatePath(ctx: { set(k: string, v: string): void }, id: string) {
  if (id !== 'create') return;
  ctx.set('Allow', 'POST');
  throw new HttpError(405, 'METHOD_NOT_ALLOWED', 'Metodo non consentito', 'Su /api/filing/create è consentito solo POST', { allowed_methods: ['POST'] });
}
const optionalBody = reasonSchema.or(emptySchema).optional().transform((v) => (v ?? {}) as { motivazione?: string });

/** JSON API of filings (docs/filing.md): reads from PostgreSQL, every change through the filing's workflow. */
export const registerFilingRoutes: RegisterRoutes = (router, { deps }) => {
  router.api({
    method: 'GET', path: '/api/filing', summary: 'Elenco delle segnalazioni regolamentari', tag, access: staff(FILING_READERS), query: listFilingsQuery, response: filingListResponse,
    handler: (ctx, { query }) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username, principal: { user: ctx.state.user!.cod_utente, roles: ctx.state.user!.ruoli } }, (trx) => listFilings(trx, tenantOf(ctx), query)),
  });

  router.api({
    method: 'POST', path: '/api/filing/create', summary: 'Crea una segnalazione in bozza (tipo, mese di riferimento per comunicazioni oggettive e S.AR.A., contenuto goAML)', tag,
    access: staff(rolesFor(filingMachine, 'edit')), body: createFilingSchema, response: filingWriteResponse, status: 201,
    handler: async (ctx, { body }) => {
      const { filingId, view } = await createFiling(deps, tenantOf(ctx), ctx.state.user!, body);
      ctx.set('Location', `/api/filing/${filingId}`);
      return view;
    },
  });

  router.api({
    method: 'GET', path: '/api/filing/:id', summary: 'Dettaglio di una segnalazione con la cronologia', tag, access: staff(FILING_READERS), response: filingDetailResponse,
    handler: (ctx, { params }) => { notTheCreatePath(ctx, params.id!); return filingDetail(deps, tenantOf(ctx), ctx.state.user!, params.id!); },
  });

  router.api({
    method: 'PUT', path: '/api/filing/:id', summary: 'Modifica titolo, mese o contenuto (solo in bozza; 409 altrimenti)', tag,
    access: staff(rolesFor(filingMachine, 'edit')), body: editFilingSchema, response: filingWriteResponse,
    handler: (ctx, { params, body }) => {
      notTheCreatePath(ctx, params.id!);
      return applyFilingTransition(deps, tenantOf(ctx), ctx.state.user!, params.id!, {
        action: 'edit', ...(body.titolo ? { titolo: body.titolo } : {}), ...(body.periodo_riferimento ? { periodo: body.periodo_riferimento } : {}), ...(body.content ? { content: body.content } : {}),
      });
    },
  });

  router.api({
    method: 'POST', path: '/api/filing/:id/classify', summary: 'Classifica: tipo, giurisdizione goAML e codice del report', tag,
    access: staff(rolesFor(filingMachine, 'classify')), body: classifyFilingSchema, response: filingWriteResponse,
    handler: (ctx, { params, body }) => applyFilingTransition(deps, tenantOf(ctx), ctx.state.user!, params.id!, {
      action: 'classify', tipo: body.tipo, jurisdiction: body.jurisdiction, reportCode: body.report_code, ...(body.periodo_riferimento ? { periodo: body.periodo_riferimento } : {}),
    }),
  });

  const simple = (action: FilingAction, summary: string) => router.api({
    method: 'POST', path: `/api/filing/:id/${action}`, summary, tag, access: staff(rolesFor(filingMachine, action)), body: optionalBody, response: filingWriteResponse,
    handler: (ctx, { params, body }) => applyFilingTransition(deps, tenantOf(ctx), ctx.state.user!, params.id!, { action, ...(body.motivazione ? { reason: body.motivazione } : {}) }),
  });
  simple('validate', 'Valida schema XSD e regole di business; 422 con gli errori (codice e percorso del campo), che restano sulla segnalazione');
  simple('mark-ready', 'Segna come pronta');
  simple('submit-for-approval', 'Invia in approvazione');
  simple('approve', 'Approva (compliance officer diverso da chi l\'ha preparata: 403 altrimenti)');
  simple('sign', 'Avvia la cerimonia di firma (processo figlio); la risposta porta signing_url');
  simple('complete-signing', 'Completa la firma (409 SIGNATURE_PENDING se la cerimonia non è firmata)');
  simple('render-package', 'Genera il pacchetto goAML XML, validato contro lo schema della giurisdizione');
  simple('archive', 'Archivia');

  router.api({
    method: 'POST', path: '/api/filing/:id/reject', summary: 'Respinge in bozza (motivazione obbligatoria, conservata)', tag,
    access: staff(rolesFor(filingMachine, 'reject')), body: rejectSchema, response: filingWriteResponse,
    handler: (ctx, { params, body }) => applyFilingTransition(deps, tenantOf(ctx), ctx.state.user!, params.id!, { action: 'reject', reason: body.motivazione }),
  });

  router.api({
    method: 'POST', path: '/api/filing/:id/record-submission', summary: 'Registra l\'invio (riferimento del portale)', tag,
    access: staff(rolesFor(filingMachine, 'record-submission')), body: recordSubmissionSchema, response: filingWriteResponse,
    handler: (ctx, { params, body }) => applyFilingTransition(deps, tenantOf(ctx), ctx.state.user!, params.id!, { action: 'record-submission', submissionRef: body.submission_ref }),
  });

  router.api({
    method: 'POST', path: '/api/filing/:id/import-return', tag, access: staff(rolesFor(filingMachine, 'import-return')), multipart: true, response: filingWriteResponse,
    summary: 'Importa l\'esito della UIF/FIU (multipart/form-data, campo "file": XML report_return, al massimo 1 MB; 415 se non è XML, 413 oltre il limite, 422 se illeggibile). ACCEPTED porta ad accettata, REJECTED a respinta con gli errori allegati. Modulo HTML: ?_csrf=, client API: X-CSRF-Token',
    handler: async (ctx, { params }) => {
      const row = await requireFiling(deps, tenantOf(ctx), ctx.state.user!, params.id!);
      const upload = await receiveReturnFile(ctx);
      const expected = reportOf(row, await loadJurisdiction(deps.config.goamlDataDir, row.jurisdiction ?? 'ae-goaml-5.0.2')).entity_reference;
      if (upload.parsed.entityReference !== expected) {
        throw new ValidationError([{ path: 'file', message: `L'esito si riferisce a ${upload.parsed.entityReference}, non a questa segnalazione (${String(expected)})` }]);
      }
      return applyFilingTransition(deps, tenantOf(ctx), ctx.state.user!, row.id, {
        action: 'import-return', returnFile: { ...upload.parsed, fileName: upload.fileName, sha256: upload.sha256 },
      });
    },
  });

  router.api({
    method: 'POST', path: '/api/filing/:id/follow-up', summary: 'Crea una nuova segnalazione in bozza collegata a una respinta', tag,
    access: staff(rolesFor(filingMachine, 'follow-up')), body: optionalBody, response: filingWriteResponse, status: 201,
    handler: (ctx, { params }) => followUpFiling(deps, tenantOf(ctx), ctx.state.user!, params.id!),
  });

  router.api({
    method: 'GET', path: '/api/filing/:id/preview', summary: 'Anteprima del pacchetto goAML per una giurisdizione (prima della generazione): XML e verdetto del validatore', tag,
    access: staff(FILING_READERS), query: previewQuery, response: previewResponse,
    handler: async (ctx, { params, query }) => previewFiling(deps, await requireFiling(deps, tenantOf(ctx), ctx.state.user!, params.id!), query),
  });

  router.api({
    method: 'GET', path: '/api/filing/:id/csv', summary: 'Forma tabellare (CSV): una riga per transazione, parte o soggetto dell\'attività', tag,
    access: staff(FILING_READERS),
    handler: async (ctx, { params }) => {
      const row = await requireFiling(deps, tenantOf(ctx), ctx.state.user!, params.id!);
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', `attachment; filename="segnalazione-${row.id}.csv"`);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = filingCsv(row.content as Parameters<typeof filingCsv>[0]);
    },
  });
};
