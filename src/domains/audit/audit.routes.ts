import type { Knex } from 'knex';
import { z } from 'zod';
import { withTenant } from '../../db/tenant';

import { hasRole, tenantOf } from '../../http/auth';
import { notFound } from '../../http/errors';
import { render, type Ctx } from '../../http/render';
import { fieldErrors } from '../../http/validate';
import type { Role } from '../../kit/roles';
import type { RegisterRoutes } from '../../kit/area';
import { MAX_OFFSET } from '../../kit/list';
import { auditEventsList } from './audit.list';
import { PLATFORM_CHAIN, verifyAuditChain } from './audit.chain';
import {
  auditEventListResponse, auditEventsQuery, auditFacets, auditVerifyQuery, auditVerifyResponse, listAuditEvents, verificationReport,
} from './audit.repo';
import { staff } from '../../kit/access';
import { AUDIT_ACTION_LABELS } from './audit.labels';

const AUDIT_READERS: Role[] = ['admin', 'co', 'auditor', 'superadmin'];
const tag = 'Audit';

/**
 * The chain a request reads: its own tenant's; a superadmin may name any chain
 * (including '_platform', its default outside a tenant). Naming another tenant without that power is a 404.
 */
function chainOf(ctx: Ctx, requested: string | undefined): string {
  if (hasRole(ctx.state.user, ['superadmin'])) {
    if (requested) return requested;
    // A superadmin outside any tenant reads the platform chain (tenant creation and the like).
    if (!ctx.state.tenant) return PLATFORM_CHAIN;
  }
  const own = tenantOf(ctx);
  if (requested && requested !== own) throw notFound('Azienda');
  return own;
}

const inChain = <T>(db: Knex, ctx: Ctx, chain: string, fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(db, { codAzienda: chain, actor: ctx.state.user!.username }, fn);

/** Rome's midnight of a YYYY-MM-DD day as a UTC instant (the page's date filters are local days). */
function romeDayStart(day: string, plusDays = 0): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const utcGuess = new Date(Date.UTC(y, m - 1, d + plusDays));
  const name = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Rome', timeZoneName: 'longOffset' })
    .formatToParts(utcGuess).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  const offsetMin = match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
  return new Date(utcGuess.getTime() - offsetMin * 60_000);
}

const day = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}$/, 'Data non valida (usa il formato gg/mm/aaaa)')
  .refine((v) => !Number.isNaN(Date.parse(v)), 'Data non valida');
const pageQuery = z.object({
  actor: z.string().trim().max(200).optional(),
  action: z.string().trim().max(200).optional(),
  entity_type: z.string().trim().max(200).optional(),
  entity_id: z.string().trim().max(200).optional(),
  da: z.union([z.literal(''), day]).optional(),
  a: z.union([z.literal(''), day]).optional(),
  cod_azienda: z.string().trim().max(200).optional(),
  offset: z.coerce.number().int().min(0).max(MAX_OFFSET).catch(0),
  cursor: z.string().max(4_000).optional().catch(undefined),
});

export const registerAuditRoutes: RegisterRoutes = (router, { deps, views }) => {
  router.api({
    method: 'GET', path: '/api/audit/events', summary: 'Interroga il registro degli eventi di audit', tag, access: staff(AUDIT_READERS),
    query: auditEventsQuery, response: auditEventListResponse,
    handler: (ctx, { query }) => {
      const chain = chainOf(ctx, query.cod_azienda);
      return inChain(deps.db, ctx, chain, (trx) => listAuditEvents(trx, chain, query));
    },
  });

  router.api({
    method: 'GET', path: '/api/audit/verify', summary: 'Verifica l\'integrità della catena di audit', tag, access: staff(AUDIT_READERS),
    query: auditVerifyQuery, response: auditVerifyResponse,
    handler: async (ctx, { query }) => {
      const chain = chainOf(ctx, query.cod_azienda);
      return verificationReport(await inChain(deps.db, ctx, chain, (trx) => verifyAuditChain(trx, chain)));
    },
  });

  router.get('/audit/eventi', staff(AUDIT_READERS), async (ctx) => {
    const parsed = pageQuery.safeParse(ctx.query);
    const raw = ctx.query as Record<string, string | undefined>;
    const filters = { actor: raw.actor ?? '', action: raw.action ?? '', entity_type: raw.entity_type ?? '', entity_id: raw.entity_id ?? '', da: raw.da ?? '', a: raw.a ?? '' };
    const chain = chainOf(ctx, parsed.success ? parsed.data.cod_azienda || undefined : undefined);
    const limit = 50;
    const data = await inChain(deps.db, ctx, chain, async (trx) => {
      const facets = await auditFacets(trx, chain);
      if (!parsed.success) return { facets, errors: fieldErrors(parsed.error), result: { items: [], total: 0, total_exact: true, limit, offset: 0, next_cursor: null, prev_cursor: null } };
      const q = parsed.data;
      const result = await listAuditEvents(trx, chain, {
        actor: q.actor || undefined, action: q.action || undefined, entity_type: q.entity_type || undefined, entity_id: q.entity_id || undefined,
        from: q.da ? romeDayStart(q.da).toISOString() : undefined,
        to: q.a ? new Date(romeDayStart(q.a, 1).getTime() - 1).toISOString() : undefined,
        sort: auditEventsList.defaultSort, limit, offset: q.offset, cursor: q.cursor || undefined,
      });
      return { facets, errors: {}, result };
    });
    const { offset: _o, cursor: _c, ...keep } = raw;
    render(ctx, views, 'audit/eventi.njk', { title: 'Registro audit', chain, filters, ...data, filterQuery: keep, actionLabels: AUDIT_ACTION_LABELS }, { fragment: 'audit/_eventi_tabella.njk', status: parsed.success ? 200 : 422 });
  });

  router.get('/audit/verifica', staff(AUDIT_READERS), async (ctx) => {
    const requested = typeof ctx.query.cod_azienda === 'string' && ctx.query.cod_azienda ? ctx.query.cod_azienda : undefined;
    const chain = chainOf(ctx, requested);
    const report = verificationReport(await inChain(deps.db, ctx, chain, (trx) => verifyAuditChain(trx, chain)));
    render(ctx, views, 'audit/verifica.njk', { title: 'Verifica integrità audit', chain, report }, { fragment: 'audit/_verifica_esito.njk' });
  });
};
