import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * Bulk imports (docs/import.md): one row per uploaded file and its workflow's progress, and the
 * row-by-row errors the report is read from. Relationships gain the code they had in the system
 * they come from (codice_esterno), the key a re-run matches them by.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table import_jobs (
      id uuid primary key,
      cod_azienda text not null references aziende (cod_azienda),
      tipo text not null constraint import_jobs_tipo check (tipo in ('clienti', 'rapporti', 'movimenti')),
      formato text not null constraint import_jobs_formato check (formato in ('csv', 'xlsx')),
      nome_file text not null constraint import_jobs_nome_file check (char_length(nome_file) between 1 and 255),
      sha256 text not null constraint import_jobs_sha256 check (sha256 ~ '^[0-9a-f]{64}$'),
      dimensione bigint not null constraint import_jobs_dimensione check (dimensione > 0),
      stato text not null default 'in_coda' constraint import_jobs_stato check (stato in ('in_coda', 'in_corso', 'completato', 'fallito')),
      righe_lette integer not null default 0 constraint import_jobs_lette check (righe_lette >= 0),
      righe_valide integer not null default 0 constraint import_jobs_valide check (righe_valide >= 0),
      righe_importate integer not null default 0 constraint import_jobs_importate check (righe_importate >= 0),
      righe_gia_presenti integer not null default 0 constraint import_jobs_presenti check (righe_gia_presenti >= 0),
      righe_errate integer not null default 0 constraint import_jobs_errate check (righe_errate >= 0),
      -- Where the next batch starts: its first row number, and for CSV the byte offset of that row.
      prossima_riga integer not null default 1,
      prossimo_byte bigint not null default 0,
      errore text,
      workflow_id text not null,
      created_by text not null,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz
    )`);
  await knex.raw('create index import_jobs_tenant_created on import_jobs (cod_azienda, created_at, id)');
  await knex.raw('create index import_jobs_tenant_stato on import_jobs (cod_azienda, stato, created_at, id)');
  await enableTenantRls(knex, 'import_jobs');

  await knex.raw(`
    create table import_errori (
      cod_azienda text not null references aziende (cod_azienda),
      import_id uuid not null references import_jobs (id) on delete cascade,
      riga integer not null constraint import_errori_riga check (riga >= 1),
      colonna text not null constraint import_errori_colonna check (char_length(colonna) <= 100),
      messaggio text not null constraint import_errori_messaggio check (char_length(messaggio) <= 500),
      -- A batch retried after a crash writes its errors again: the same row and column once.
      primary key (import_id, riga, colonna)
    )`);
  await knex.raw('create index import_errori_tenant on import_errori (cod_azienda, import_id, riga)');
  await enableTenantRls(knex, 'import_errori');

  await knex.raw('alter table rapporti add column codice_esterno text constraint rapporti_codice_esterno check (char_length(codice_esterno) between 1 and 100)');
  await knex.raw('create unique index rapporti_tenant_codice_esterno on rapporti (cod_azienda, codice_esterno) where codice_esterno is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index rapporti_tenant_codice_esterno');
  await knex.raw('alter table rapporti drop column codice_esterno');
  await disableTenantRls(knex, 'import_errori');
  await knex.raw('drop table import_errori');
  await disableTenantRls(knex, 'import_jobs');
  await knex.raw('drop table import_jobs');
}
