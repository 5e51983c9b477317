import type { Role } from '../../kit/roles';
import { SIGNER_OR_STAFF } from './esign.access';
import { checkReferences } from '../../db/references';
import { type ApiCtx } from '../../http/api-route';
import { tenantOf } from '../../http/auth';
import type { RegisterRoutes } from '../../kit/area';
import { verifyBundle } from './esign.bundle';
import { startCeremony } from './esign.commands';
import { receiptPdf } from './esign.receipt';
import {
  ceremonyResponse, signBody, startCeremonySchema, startResponse, tokenBody, tokenQuery, verifyBody, verifyResponse,
} from './esign.schemas';
import { ceremonyByToken, ceremonyView, esignTemporal, resolveCeremony, signerStep } from './esign.service';
import { staffActor } from '../../kit/actor';
import { staff, PUBLIC, SIGNER } from '../../kit/access';

const STARTERS: Role[] = ['co', 'analyst', 'admin'];
const tag = 'Firma elettronica';
const clientOf = (ctx: ApiCtx) => ({ ip: ctx.ip, userAgent: ctx.get('user-agent').slice(0, 500) });
/** The signer's token may come in the body or the query string (the link carries it). */
const tokenOf = (ctx: ApiCtx, body?: { token?: string }) => body?.token ?? (typeof ctx.query.token === 'string' ? ctx.query.token : undefined);

/**
 * E-signature ceremony API. Staff start a ceremony and read it; the signer, who has no
 * account, acts with the signing link's token; verify is public.
 */
export const registerEsignRoutes: RegisterRoutes = (router, { deps }) => {
  router.api({
    method: 'POST', path: '/api/v1/esign/ceremony/start', summary: 'Avvia una cerimonia di firma', tag, access: staff(STARTERS), body: startCeremonySchema, response: startResponse, status: 201,
    handler: async (ctx, { body }) => {
      const u = ctx.state.user!;
      // A parent is one of this tenant's processes: another tenant's workflow id is "not found".
      await checkReferences(deps.db, tenantOf(ctx), u.username, { parent_workflow_id: { kind: 'workflow', value: body.parent_workflow_id } });
      const r = await startCeremony(await esignTemporal(deps), { codAzienda: tenantOf(ctx), actor: staffActor(u), data: body });
      const row = await ceremonyByToken(deps, r.ceremonyId, r.token);
      ctx.set('Location', `/api/v1/esign/ceremony/${r.ceremonyId}`);
      return { ...ceremonyView(row), token: r.token, signing_url: `${deps.config.publicBaseUrl}${r.signingPath}` };
    },
  });

  router.api({
    method: 'GET', path: '/api/v1/esign/ceremony/:id', summary: 'Stato della cerimonia (token del firmatario o personale)', tag, access: SIGNER_OR_STAFF, query: tokenQuery, response: ceremonyResponse,
    handler: async (ctx, { params, query }) => ceremonyView(await resolveCeremony(deps, params.id!, query.token, ctx.state.user)),
  });

  for (const action of ['terms', 'present'] as const) {
    router.api({
      method: 'POST', path: `/api/v1/esign/ceremony/:id/${action}`, summary: action === 'terms' ? 'Accetta le condizioni' : 'Presenta il documento e invia il codice OTP', tag, access: SIGNER, body: tokenBody, response: ceremonyResponse,
      handler: async (ctx, { params, body }) => {
        const row = await ceremonyByToken(deps, params.id!, tokenOf(ctx, body));
        return ceremonyView(await signerStep(deps, row, action, clientOf(ctx)));
      },
    });
  }

  router.api({
    method: 'POST', path: '/api/v1/esign/ceremony/:id/resend', tag, access: SIGNER, body: tokenBody, response: ceremonyResponse,
    summary: 'Invia un nuovo codice OTP (il precedente smette di valere; uno al minuto, al massimo 4 in piÃ¹)',
    handler: async (ctx, { params, body }) => {
      const row = await ceremonyByToken(deps, params.id!, tokenOf(ctx, body));
      return ceremonyView(await signerStep(deps, row, 'resend', clientOf(ctx)));
    },
  });

  router.api({
    method: 'POST', path: '/api/v1/esign/ceremony/:id/sign', summary: 'Firma con il codice OTP', tag, access: SIGNER, body: signBody, response: ceremonyResponse,
    handler: async (ctx, { params, body }) => {
      const row = await ceremonyByToken(deps, params.id!, tokenOf(ctx, body));
      return ceremonyView(await signerStep(deps, row, 'sign', clientOf(ctx), body.otp));
    },
  });

  router.api({
    method: 'GET', path: '/api/v1/esign/ceremony/:id/receipt', summary: 'Ricevuta (PDF; ?format=json per il pacchetto firmato)', tag, access: SIGNER_OR_STAFF, query: tokenQuery,
    handler: async (ctx, { params, query }) => {
      const row = await resolveCeremony(deps, params.id!, query.token, ctx.state.user);
      if (query.format === 'json') {
        if (!row.bundle) return { stato: row.stato, bundle: null };
        ctx.set('Content-Disposition', `attachment; filename="firma-${row.id}.json"`);
        return row.bundle;
      }
      ctx.type = 'application/pdf';
      ctx.set('Content-Disposition', `inline; filename="ricevuta-firma-${row.id}.pdf"`);
      ctx.body = await receiptPdf(row);
      return undefined;
    },
  });

  router.api({
    method: 'POST', path: '/api/v1/esign/ceremony/:id/verify', summary: 'Verifica un pacchetto firmato (chiunque)', tag, access: PUBLIC, body: verifyBody, response: verifyResponse,
    handler: async (_ctx, { params, body }) => {
      const r = await verifyBundle(body.bundle, body.trusted_certificate);
      // The bundle must be this ceremony's: a valid signature over another ceremony is not a match.
      if (r.valid && r.evidence.ceremony_id !== params.id) return { valid: false, reason: 'the bundle belongs to another ceremony' };
      return r;
    },
  });
};
