import { z } from 'zod';
import { STAFF_READ, type Role } from '../../kit/roles';
import { withTenant } from '../../db/tenant';

import { tenantOf } from '../../http/auth';
import type { RegisterRoutes } from '../../kit/area';
import { listResponse } from '../../kit/list';
import {
  adminListQuery, downloadDocument, listOnboardingCases, noteBody, onboardingDetail, rejectBody, requestInfoBody, reviewOnboarding, revokeWalletBody,
} from './onboarding-admin.service';
import { staff } from '../../kit/access';
import { rolesFor } from '../../kit/process';
import { onboardingMachine } from '../../../workflows/onboarding/onboarding.machine';

/** Identity documents are for the people who check them (and audit the checks), not for read-only users. */
export const DOCUMENT_READERS: Role[] = ['admin', 'co', 'sos', 'analyst', 'auditor'];
const tag = 'Onboarding (revisione)';
const base = '/api/v1/admin/onboarding/cases';

const when = z.union([z.string(), z.date()]);
const listItem = z.object({
  id: z.string(), stato: z.string(), tipo_soggetto: z.string().nullable(), email: z.string().nullable(), canale: z.string(),
  denominazione: z.string().nullable(), risk_score: z.number().nullable(), risk_classe: z.string().nullable(), pep: z.boolean().nullable(),
  submitted_at: when.nullable(), created_at: when, updated_at: when, cod_anagrafe: z.string().nullable(), approved_by_username: z.string().nullable(),
});
const onboardingListResponse = listResponse(listItem);
const record = z.record(z.string(), z.unknown());
const detailResponse = listItem.omit({ risk_score: true, risk_classe: true, pep: true }).extend({
  risk_score: z.number().nullable(), risk_classe: z.string().nullable(), pep: z.boolean().nullable(),
  anagrafe: record, titolari: z.array(record),
  documents: z.array(z.object({ id: z.string(), tipo: z.string(), riferimento: z.string(), nome_file: z.string(), mime: z.string(), dimensione: z.number(), sha256: z.string(), download_url: z.string() }).loose()),
  cdd: z.object({ versione: z.string().nullable(), risposte: z.array(z.object({ id: z.string(), domanda: z.string(), risposta: z.unknown(), risposta_label: z.string() })) }),
  countries: z.array(z.object({ paese: z.unknown(), paese_nome: z.string().nullable(), ruolo: z.unknown(), alto_rischio: z.boolean() })),
  wallets: z.array(z.object({ id: z.string(), rete: z.string(), indirizzo: z.string(), tipo: z.string(), stato: z.string(), volume_annuo_eur: z.number().nullable(), screening: z.unknown(), allowed_actions: z.array(z.string()) }).loose()),
  screening: record.nullable(), risk: record.nullable(), travel_rule: record,
  ceremonies: z.array(z.object({ id: z.string(), stato: z.string(), scopo: z.string().nullable() }).loose()),
  allowed_actions: z.array(z.string()),
  timeline: z.array(z.object({ seq: z.number().nullable(), action: z.string(), actor: z.string(), occurred_at: when, entity_type: z.string(), entity_id: z.string(), data: record })),
  workflow: z.object({ id: z.string(), url: z.string() }),
}).loose();

/** JSON API of the reviewers' console: reads from PostgreSQL, every decision through the case's workflow. */
export const registerOnboardingAdminRoutes: RegisterRoutes = (router, { deps }) => {
  router.api({
    method: 'GET', path: base, summary: 'Elenco delle pratiche di onboarding', tag, access: staff(STAFF_READ), query: adminListQuery, response: onboardingListResponse,
    handler: (ctx, { query }) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, (trx) => listOnboardingCases(trx, tenantOf(ctx), query)),
  });

  router.api({
    method: 'GET', path: `${base}/:id`, summary: 'Dettaglio di una pratica di onboarding', tag, access: staff(STAFF_READ), response: detailResponse,
    handler: (ctx, { params }) => onboardingDetail(deps, tenantOf(ctx), ctx.state.user!, params.id!),
  });

  router.api({
    method: 'POST', path: `${base}/:id/approve`, summary: 'Approva (o prima approvazione se il rischio richiede i quattro occhi)', tag, access: staff(rolesFor(onboardingMachine, 'approve')), body: noteBody, response: detailResponse,
    handler: (ctx, { body, params }) => reviewOnboarding(deps, tenantOf(ctx), ctx.state.user!, params.id!, 'approve', { note: body.note }),
  });

  router.api({
    method: 'POST', path: `${base}/:id/complete-approval`, summary: 'Approvazione definitiva (quattro occhi)', tag, access: staff(rolesFor(onboardingMachine, 'complete-approval')), body: noteBody, response: detailResponse,
    handler: (ctx, { body, params }) => reviewOnboarding(deps, tenantOf(ctx), ctx.state.user!, params.id!, 'complete-approval', { note: body.note }),
  });

  router.api({
    method: 'POST', path: `${base}/:id/reject`, summary: 'Respinge la pratica', tag, access: staff(rolesFor(onboardingMachine, 'reject')), body: rejectBody, response: detailResponse,
    handler: (ctx, { body, params }) => reviewOnboarding(deps, tenantOf(ctx), ctx.state.user!, params.id!, 'reject', { reason: body.reason }),
  });

  router.api({
    method: 'POST', path: `${base}/:id/request-info`, summary: 'Chiede informazioni al cliente (nuovo link via e-mail)', tag, access: staff(rolesFor(onboardingMachine, 'request-info')), body: requestInfoBody, response: detailResponse,
    handler: (ctx, { body, params }) => reviewOnboarding(deps, tenantOf(ctx), ctx.state.user!, params.id!, 'request-info', { message: body.message }),
  });

  router.api({
    method: 'GET', path: `${base}/:id/documents/:docId/download`, summary: 'Scarica un documento del cliente (operazione registrata; non per la sola consultazione)', tag, access: staff(DOCUMENT_READERS),
    handler: async (ctx, { params }) => {
      const d = await downloadDocument(deps, tenantOf(ctx), ctx.state.user!, params.id!, params.docId!);
      ctx.type = d.mime;
      ctx.set('Content-Disposition', d.disposition);
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Cache-Control', 'private, no-store');
      return d.bytes;
    },
  });

  router.api({
    method: 'POST', path: `${base}/:id/wallets/:walletId/verify`, summary: 'Verifica un wallet del cliente', tag, access: staff(rolesFor(onboardingMachine, 'wallet-verify')), body: noteBody, response: detailResponse,
    handler: (ctx, { body, params }) => reviewOnboarding(deps, tenantOf(ctx), ctx.state.user!, params.id!, 'wallet-verify', { wallet_id: params.walletId!, note: body.note }),
  });

  router.api({
    method: 'POST', path: `${base}/:id/wallets/:walletId/revoke`, summary: 'Revoca un wallet del cliente', tag, access: staff(rolesFor(onboardingMachine, 'wallet-revoke')), body: revokeWalletBody, response: detailResponse,
    handler: (ctx, { body, params }) => reviewOnboarding(deps, tenantOf(ctx), ctx.state.user!, params.id!, 'wallet-revoke', { wallet_id: params.walletId!, reason: body.reason }),
  });
};
