import type { Knex } from 'knex';

/**
 * A seed's last phase, `pratiche` (docs/monitoring.md, "The seed"): the work a compliance officer
 * would have opened on the seeded year, through the platform's processes: some alerts escalated
 * into cases, CDD tasks and risk assessments for the high-risk customers. What it opened is kept
 * on the job (`pratiche`: casi, pratiche_cdd, valutazioni).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table monitoring_seed_jobs
    add column pratiche jsonb not null default '{}'::jsonb,
    drop constraint monitoring_seed_jobs_fase,
    add constraint monitoring_seed_jobs_fase
      check (fase in ('in_coda', 'generazione', 'import_clienti', 'import_rapporti', 'import_movimenti', 'eventi_kyt', 'regole', 'replay', 'pratiche', 'fine'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`update monitoring_seed_jobs set fase = 'replay' where fase = 'pratiche'`);
  await knex.raw(`alter table monitoring_seed_jobs
    drop column pratiche,
    drop constraint monitoring_seed_jobs_fase,
    add constraint monitoring_seed_jobs_fase
      check (fase in ('in_coda', 'generazione', 'import_clienti', 'import_rapporti', 'import_movimenti', 'eventi_kyt', 'regole', 'replay', 'fine'))`);
}
