import type { Knex } from 'knex';
import { withTenant } from '../../db/tenant';
import { appendAudit } from '../audit';
import { IMPORT_BATCH_ROWS, IMPORT_BATCHES_PER_CHUNK, type ImportChunkResult, type ImportInput } from '../../../workflows/imports/imports.contract';
import { missingColumns, type ImportKind, type RowError } from './import-kind';
import { importFilePath } from './import-files';
import { rowsOf, type SourceRow } from './import-reader';
import { IMPORT_KINDS } from './kinds';
import type { ImportJobRow } from './imports.repo';

/** What the batch engine needs from the activity: the pool, where files are, and how to say it is alive. */
export interface RunDeps { db: Knex; documentDir: string; heartbeat: (details: unknown) => void }

const jobOf = (db: Knex, input: ImportInput) =>
  withTenant(db, { codAzienda: input.codAzienda, actor: 'import' }, (trx) => trx('import_jobs').where({ id: input.importId }).first() as Promise<ImportJobRow | undefined>);

export async function beginImport(db: Knex, input: ImportInput): Promise<void> {
  await withTenant(db, { codAzienda: input.codAzienda, actor: 'import' }, (trx) =>
    trx('import_jobs').where({ id: input.importId, stato: 'in_coda' }).update({ stato: 'in_corso', started_at: trx.fn.now() }));
}

/**
 * Up to IMPORT_BATCHES_PER_CHUNK batches from the job's next row. Each batch is one transaction:
 * the kind's idempotent write, the rows' errors, the job's counters and the batch's entry in the
 * job's ledger together, so a crash anywhere leaves every batch either committed whole (counted
 * once, skipped by a retry) or not at all (written by the retry).
 *
 * A kind may write several batches at once (`writers`): the database's work per row (indexes,
 * foreign keys) is most of an import's time, and one connection uses one core. Batches are cut
 * the same way on every run (IMPORT_BATCH_ROWS data rows from where the previous one ended), so
 * `lotti_scritti` (batch start -> the row after it) names them; `prossima_riga` moves over the
 * unbroken run of committed batches and a retry reads on from there, skipping those the ledger holds.
 */
export async function importChunk(deps: RunDeps, input: ImportInput): Promise<ImportChunkResult> {
  const job = await jobOf(deps.db, input);
  if (!job || job.stato === 'completato' || job.stato === 'fallito') return { done: true };
  const kind = IMPORT_KINDS[job.tipo];
  let header: string[] = [];
  const rows = rowsOf(job.formato, importFilePath(deps.documentDir, job.cod_azienda, job.sha256), job.prossima_riga, (h) => { header = h; });
  // While batches are written, the next one is read and checked: the rows' checks (this
  // process's CPU) overlap the database's inserts instead of waiting for them.
  const writing = new Set<Promise<void>>();
  let failed: { err: unknown } | undefined;
  const settle = async () => {
    await Promise.all(writing);
    if (failed) throw failed.err;
  };
  let start = job.prossima_riga;
  try {
    for (let b = 0; b < IMPORT_BATCHES_PER_CHUNK; b++) {
      const batch: SourceRow[] = [];
      for (let r = await rows.next(); ; r = await rows.next()) {
        if (r.done) break;
        batch.push(r.value);
        if (batch.length >= IMPORT_BATCH_ROWS) break;
      }
      const missing = missingColumns(kind, header);
      if (missing.length) {
        await withTenant(deps.db, { codAzienda: job.cod_azienda, actor: job.created_by }, (trx) => saveErrors(trx, job, missing));
        return { refused: `Mancano colonne obbligatorie: ${missing.map((m) => m.colonna).join(', ')}`, done: true };
      }
      if (!batch.length) break;
      const span = { start, next: batch[batch.length - 1]!.riga + 1 };
      start = span.next;
      // Committed by an earlier attempt (the ledger holds it): counted already, nothing to write.
      if (job.lotti_scritti[String(span.start)] !== span.next) {
        const checked = checkBatch(kind, batch);
        while (writing.size >= (kind.writers ?? 1)) await Promise.race(writing);
        if (failed) throw failed.err;
        const w: Promise<void> = writeBatch(deps.db, job, kind, batch.length, checked, span)
          .then(() => deps.heartbeat({ riga: span.next - 1 }))
          // Nobody awaits it until a writer is free: a failure must not be an unhandled rejection meanwhile.
          .catch((err: unknown) => { failed ??= { err }; })
          .finally(() => { writing.delete(w); });
        writing.add(w);
      }
      if (batch.length < IMPORT_BATCH_ROWS) break;
      if (b === IMPORT_BATCHES_PER_CHUNK - 1) {
        await settle();
        return { done: false };
      }
    }
    await settle();
    return { done: true };
  } catch (err) {
    // The batches being written finish (or fail) before the activity does: nothing runs after it.
    await Promise.all(writing);
    if (isUnreadable(err)) throw Object.assign(new Error(`File non leggibile: ${(err as Error).message}`), { name: 'IMPORT_FILE_UNREADABLE' });
    throw err;
  } finally {
    await rows.return(undefined);
  }
}

/** A file the parser cannot read (broken quoting, a damaged XLSX) will not read better on a retry. */
const isUnreadable = (err: unknown) => {
  const code = (err as { code?: unknown })?.code;
  return (typeof code === 'string' && code.startsWith('CSV_')) || /zip|end of central directory|invalid signature/i.test(String((err as Error)?.message));
};

interface CheckedBatch { valid: { riga: number; value: unknown }[]; errors: RowError[] }

/** Each row through the kind's checks (no database). */
function checkBatch(kind: ImportKind<unknown>, batch: SourceRow[]): CheckedBatch {
  const valid: { riga: number; value: unknown }[] = [];
  const errors: RowError[] = [];
  for (const row of batch) {
    const p = kind.parse(row.values);
    if (p.ok) valid.push({ riga: row.riga, value: p.value });
    else errors.push(...p.errors.map((e) => ({ ...e, riga: row.riga })));
  }
  return { valid, errors };
}

/** PostgreSQL's deadlock and serialization failures: the transaction was rolled back whole and may simply run again. */
const isTransient = (err: unknown) => ['40P01', '40001'].includes(String((err as { code?: unknown })?.code));

/**
 * One transaction: the kind's idempotent write, the rows' errors, then (last, so concurrent
 * batches wait for each other only for the commit) the job's counters and ledger under the job
 * row's lock. A deadlock between two batches claiming the same keys runs the batch again.
 */
async function writeBatch(db: Knex, job: ImportJobRow, kind: ImportKind<unknown>, rowsRead: number, { valid, errors }: CheckedBatch, span: { start: number; next: number }): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await withTenant(db, { codAzienda: job.cod_azienda, actor: job.created_by }, async (trx) => {
        const written = valid.length
          ? await kind.write(trx, { codAzienda: job.cod_azienda, actor: job.created_by, importId: job.id }, valid)
          : { imported: 0, skipped: 0, errors: [] };
        const all = [...errors, ...written.errors];
        await saveErrors(trx, job, all);
        const now = await trx('import_jobs').where({ id: job.id }).forUpdate().first<Pick<ImportJobRow, 'prossima_riga' | 'lotti_scritti'>>('prossima_riga', 'lotti_scritti');
        const ledger: Record<string, number> = { ...now!.lotti_scritti, [String(span.start)]: span.next };
        let next = now!.prossima_riga;
        for (let to = ledger[String(next)]; to !== undefined; to = ledger[String(next)]) {
          delete ledger[String(next)];
          next = to;
        }
        await trx('import_jobs').where({ id: job.id }).update({
          righe_lette: trx.raw('righe_lette + ?', [rowsRead]),
          righe_valide: trx.raw('righe_valide + ?', [valid.length - new Set(written.errors.map((e) => e.riga)).size]),
          righe_importate: trx.raw('righe_importate + ?', [written.imported]),
          righe_gia_presenti: trx.raw('righe_gia_presenti + ?', [written.skipped]),
          righe_errate: trx.raw('righe_errate + ?', [new Set(all.map((e) => e.riga)).size]),
          prossima_riga: next,
          lotti_scritti: JSON.stringify(ledger),
        });
      });
      return;
    } catch (err) {
      if (attempt >= 3 || !isTransient(err)) throw err;
    }
  }
}

async function saveErrors(trx: Knex.Transaction, job: ImportJobRow, errors: RowError[]): Promise<void> {
  for (let i = 0; i < errors.length; i += 1_000) {
    await trx('import_errori').insert(errors.slice(i, i + 1_000).map((e) => ({
      cod_azienda: job.cod_azienda, import_id: job.id, riga: e.riga, colonna: e.colonna.slice(0, 100), messaggio: e.messaggio.slice(0, 500),
    }))).onConflict(['import_id', 'riga', 'colonna']).ignore();
  }
}

export async function finishImport(db: Knex, input: ImportInput & { stato: 'completato' | 'fallito'; errore?: string }): Promise<void> {
  await withTenant(db, { codAzienda: input.codAzienda, actor: 'import' }, async (trx) => {
    const [job] = await trx('import_jobs').where({ id: input.importId }).whereIn('stato', ['in_coda', 'in_corso'])
      .update({ stato: input.stato, errore: input.errore ?? null, finished_at: trx.fn.now() }).returning('*') as ImportJobRow[];
    if (!job) return; // already finished: a retried activity
    await appendAudit(trx, {
      codAzienda: job.cod_azienda, actor: job.created_by, action: input.stato === 'completato' ? 'import.completed' : 'import.failed',
      entityType: 'import', entityId: job.id,
      data: {
        tipo: job.tipo, nome_file: job.nome_file, righe_lette: job.righe_lette, righe_importate: job.righe_importate,
        righe_gia_presenti: job.righe_gia_presenti, righe_errate: job.righe_errate, ...(input.errore ? { errore: input.errore } : {}),
      },
    });
  });
}
