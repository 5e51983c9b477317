import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { tenantOf } from '../../http/auth';
import { forbidden, HttpError } from '../../http/errors';
import { parseOrThrow } from '../../http/validate';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import type { ListDefinition, ListExport } from '../../kit/list';
import type { Role } from '../../kit/roles';
import { EXPORT_CONTENT_TYPES, EXPORT_FORMATS } from './export-writers';
import { runExport } from './exports.stream';

/** Rows read per page (one short tenant transaction each): large enough to be fast, small enough to stay flat in memory. */
export const EXPORT_PAGE_SIZE = 2_000;

const formatQuery = z.object({
  formato: z.enum(EXPORT_FORMATS, { message: 'Formato non valido: csv oppure xlsx' }).optional().default('csv'),
}).loose();

type Exportable = ListDefinition & { export: ListExport };

/**
 * GET /api/export/:entity: any list an area registers with an `export` declaration, as CSV or
 * XLSX, streamed page by page through the list's own keyset with the list's filters and roles.
 * Who exported what (filters, rows) goes in the audit log once the file has been written.
 */
export const registerExportRoutes: RegisterRoutes = (router, { deps, areas }) => {
  const lists = new Map<string, Exportable>(areas.flatMap((a) => a.lists ?? [])
    .filter((l): l is Exportable => l.export !== undefined && l.scopes.includes('tenant'))
    .map((l) => [l.export.entity ?? l.name, l]));
  const readers = [...new Set([...lists.values()].flatMap((l) => l.export.roles))] as Role[];

  router.api({
    method: 'GET', path: '/api/export/:entity', tag: 'Esportazioni', access: staff(readers), query: formatQuery,
    summary: `Esporta un elenco in CSV o XLSX (formato=csv|xlsx) con gli stessi filtri e ruoli dell'elenco; elenchi: ${[...lists.keys()].join(', ')}. Il file è trasmesso a pagine (memoria costante) e l'esportazione è registrata nel log di audit`,
    handler: async (ctx, { params }) => {
      const def = lists.get(params.entity!);
      if (!def) {
        throw new HttpError(404, 'UNKNOWN_ENTITY', 'Elenco non esportabile', `"${params.entity}" non è un elenco esportabile: scegli tra ${[...lists.keys()].join(', ')}`, { known: [...lists.keys()] });
      }
      const user = ctx.state.user!;
      if (!user.ruoli.some((r) => def.export.roles.includes(r))) throw forbidden('Il tuo ruolo non può leggere questo elenco, quindi nemmeno esportarlo');
      const { formato, ...rest } = parseOrThrow(formatQuery, ctx.query);
      const parsed = parseOrThrow(def.export.query(), rest) as Record<string, unknown>;
      const request = def.export.forCaller ? def.export.forCaller(parsed, user.cod_utente) : parsed;
      const codAzienda = tenantOf(ctx);
      const out = new PassThrough({ highWaterMark: 256 * 1024 });
      // The first page is read before the answer starts: a filter PostgreSQL refuses is still a clean error.
      const started = await runExport(deps, { def, codAzienda, actor: user.username, principal: { user: user.cod_utente, roles: user.ruoli }, formato, request, filters: rest, out, pageSize: EXPORT_PAGE_SIZE });
      ctx.status = 200;
      ctx.type = EXPORT_CONTENT_TYPES[formato];
      const day = new Date().toISOString().slice(0, 10);
      ctx.set('Content-Disposition', `attachment; filename="${params.entity}-${day}.${formato}"`);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = out;
      started.finish();
      return undefined;
    },
  });
};
