import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * Seeds of a demo tenant's labelled year (docs/monitoring.md, "The generator and the seed"): one
 * row per POST /api/engine/seed (or `npm start`'s first seed), with its parameters, the phase its
 * workflow is in, the imports and the replay it ran, and what it produced.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table monitoring_seed_jobs (
      id uuid primary key,
      cod_azienda text not null references aziende (cod_azienda),
      clienti integer not null constraint monitoring_seed_jobs_clienti check (clienti between 1 and 20000),
      seed text not null constraint monitoring_seed_jobs_seed check (char_length(seed) between 1 and 64),
      mesi integer not null constraint monitoring_seed_jobs_mesi check (mesi between 1 and 24),
      -- The labelled period (the replay's) and the first day of the history before it.
      storico_dal date not null,
      dal date not null,
      al date not null,
      stato text not null default 'in_coda' constraint monitoring_seed_jobs_stato check (stato in ('in_coda', 'in_corso', 'completato', 'fallito')),
      fase text not null default 'in_coda' constraint monitoring_seed_jobs_fase
        check (fase in ('in_coda', 'generazione', 'import_clienti', 'import_rapporti', 'import_movimenti', 'eventi_kyt', 'regole', 'replay', 'fine')),
      import_clienti uuid references import_jobs (id),
      import_rapporti uuid references import_jobs (id),
      import_movimenti uuid references import_jobs (id),
      esecuzione_replay uuid references monitoring_esecuzioni (id),
      -- What the generator planted (typology -> patterns) and wrote.
      piantati jsonb not null default '{}'::jsonb,
      righe jsonb not null default '{}'::jsonb,
      eventi_kyt integer not null default 0,
      regole_attivate integer not null default 0,
      alert integer not null default 0,
      errore text,
      workflow_id text not null,
      created_by text not null,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz
    )`);
  await knex.raw('create index monitoring_seed_jobs_tenant_created on monitoring_seed_jobs (cod_azienda, created_at, id)');
  await enableTenantRls(knex, 'monitoring_seed_jobs');
}

export async function down(knex: Knex): Promise<void> {
  await disableTenantRls(knex, 'monitoring_seed_jobs');
  await knex.raw('drop table monitoring_seed_jobs');
}
