import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * Customer dossiers (docs/dossier.md): the row the dossier workflow projects, with the PDF's
 * bytes, its SHA-256 and the signed manifest, and the dossier's timeline. The list's indexes
 * are tenant-first, one per sort and one per equality filter with the default sort (docs/lists.md).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('dossiers', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_anagrafe').notNullable();
    t.text('denominazione').notNullable();
    t.specificType('sezioni', 'text[]').notNullable();
    t.text('stato').notNullable();
    t.binary('pdf').notNullable();
    t.text('pdf_sha256').notNullable();
    t.integer('pdf_bytes').notNullable();
    t.integer('pagine').notNullable();
    t.jsonb('manifest').notNullable();
    t.text('manifest_jws').notNullable();
    t.text('created_by').notNullable();
    t.uuid('ceremony_id');
    t.text('signed_by');
    t.timestamp('signed_at', { useTz: true });
    t.timestamp('archived_at', { useTz: true });
    t.text('workflow_id').notNullable();
    t.timestamp('generated_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });
  await knex.raw('create index dossiers_created on dossiers (cod_azienda, created_at, id)');
  await knex.raw('create index dossiers_stato on dossiers (cod_azienda, stato, created_at, id)');
  await knex.raw('create index dossiers_anagrafe on dossiers (cod_azienda, cod_anagrafe, created_at, id)');
  await enableTenantRls(knex, 'dossiers');

  await knex.schema.createTable('dossier_events', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('dossier_id').notNullable().references('dossiers.id');
    t.text('tipo').notNullable();
    t.text('testo').notNullable();
    t.text('actor').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('create index dossier_events_dossier on dossier_events (cod_azienda, dossier_id, created_at)');
  await enableTenantRls(knex, 'dossier_events');
}

export async function down(knex: Knex): Promise<void> {
  await disableTenantRls(knex, 'dossier_events');
  await knex.schema.dropTable('dossier_events');
  await disableTenantRls(knex, 'dossiers');
  await knex.schema.dropTable('dossiers');
}
