import type { Writable } from 'node:stream';
import type { Deps } from '../../deps';
import { withTenant, type DbPrincipal } from '../../db/tenant';
import { tenantScope, walkList, type ListDefinition, type ListExport, type ListRequest } from '../../kit/list';
import { appendAudit } from '../audit';
import { csvWriter, xlsxWriter, type ExportFormat, type TableWriter } from './export-writers';

export interface ExportJob {
  def: ListDefinition & { export: ListExport };
  codAzienda: string;
  actor: string;
  /** The caller's signed principal: row policies by role (SOS) see the caller, not an anonymous reader. */
  principal: DbPrincipal;
  formato: ExportFormat;
  /** The list's parsed query (filters, q, sort). */
  request: Record<string, unknown>;
  /** The filters as the caller gave them, for the audit event. */
  filters: Record<string, unknown>;
  out: Writable;
  pageSize: number;
}

/** What the audit event keeps of the query: the filters, not the paging. */
const auditedFilters = (f: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(f).filter(([k, v]) => !['limit', 'offset', 'cursor'].includes(k) && v !== undefined && v !== ''));

/**
 * Reads the first page now (so a refused filter is still an error answer, not a broken file), then,
 * on `finish()`, writes the file page by page: a page is read only once the stream has drained, so a
 * slow client slows the reads and memory stays at about one page. The audit event (who, which list,
 * which filters, how many rows, whether the file was written to the end) follows the last row.
 */
export async function runExport(deps: Deps, job: ExportJob): Promise<{ finish: () => void }> {
  const { def, codAzienda, actor, out } = job;
  const confidential = def.export.confidential;
  const read = <T>(fn: (db: import('knex').Knex) => Promise<T>) => withTenant(deps.db, { codAzienda, actor, principal: job.principal }, async (trx) => {
    const rows = await fn(trx);
    // The rows this page will write (the list reads one more to know whether a next page exists).
    if (confidential) await confidential.auditPage(trx, (rows as unknown as Record<string, unknown>[]).slice(0, job.pageSize), { codAzienda, actor, formato: job.formato, filters: auditedFilters(job.filters) });
    return rows;
  });
  const pages = walkList<Record<string, unknown>>(read, def, tenantScope(codAzienda), job.request as unknown as ListRequest, job.pageSize);
  let next: IteratorResult<Record<string, unknown>[]> | undefined = await pages.next();
  const columns = Object.keys(def.export.columns);
  const cell = (row: Record<string, unknown>, c: string) => {
    const v = row[c];
    const labels = def.export.values?.[c];
    // A yes/no column reads as the pages write it (a spreadsheet's TRUE/FALSE is not Italian).
    if (typeof v === 'boolean') return v ? 'Sì' : 'No';
    return labels && typeof v === 'string' ? labels[v] ?? v : v;
  };
  const write = async () => {
    let rows = 0;
    let complete = false;
    try {
      const writer: TableWriter = job.formato === 'xlsx' ? await xlsxWriter(out, def.name) : csvWriter(out);
      writer.header(columns.map((c) => def.export.columns[c]!));
      while (next && !next.done) {
        // Nothing holds a page once it is written: while the next one is read, the last one is garbage.
        const page = next.value;
        next = undefined;
        await writer.page(page.map((row) => columns.map((c) => cell(row, c))));
        rows += page.length;
        if (out.destroyed) break;
        next = await pages.next();
      }
      if (!out.destroyed) {
        await writer.end();
        complete = true;
      }
    } catch (err) {
      deps.logger.error({ err, list: def.name, codAzienda }, 'export failed mid-file');
      out.destroy(err as Error);
    } finally {
      await pages.return(undefined);
      // A confidential list's reads are in its own trail (auditPage); the tenant's chain holds no trace of them.
      if (!confidential) await withTenant(deps.db, { codAzienda, actor }, (trx) => appendAudit(trx, {
        codAzienda, actor, action: 'export.completed', entityType: 'export', entityId: def.name,
        data: { elenco: def.name, formato: job.formato, filtri: auditedFilters(job.filters), righe: rows, completo: complete },
      })).catch((err: unknown) => deps.logger.error({ err, list: def.name, codAzienda }, 'export audit failed'));
    }
  };
  return { finish: () => { void write(); } };
}
