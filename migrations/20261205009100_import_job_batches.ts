import type { Knex } from 'knex';

/**
 * An import writes several batches of a file at once (docs/import.md, "Speed"), so a batch can
 * commit before an earlier one. `lotti_scritti` holds the batches committed beyond
 * `prossima_riga` (first row -> the row after the batch); `prossima_riga` moves on only over an
 * unbroken run of them, and a retry skips the batches the ledger holds. Empty between batches.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table import_jobs add column lotti_scritti jsonb not null default '{}'
    constraint import_jobs_lotti_scritti check (jsonb_typeof(lotti_scritti) = 'object')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table import_jobs drop column lotti_scritti');
}
