import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * Progress of a re-screen, one row per run and tenant: the import's re-screen of every tenant
 * writes one per tenant, so each tenant reads its own and the platform reads them all.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('screening_rescreens', (t) => {
    t.uuid('run_id').notNullable();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('workflow_id').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.integer('subjects_total').notNullable().defaultTo(0);
    t.integer('subjects_done').notNullable().defaultTo(0);
    t.integer('pages_done').notNullable().defaultTo(0);
    t.integer('matches_created').notNullable().defaultTo(0);
    t.text('error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('started_at', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
    t.primary(['run_id', 'cod_azienda']);
  });
  await knex.raw("alter table screening_rescreens add constraint screening_rescreens_status check (status in ('pending','running','completed','failed'))");
  await knex.raw('create index screening_rescreens_tenant on screening_rescreens (cod_azienda, created_at desc)');
  await enableTenantRls(knex, 'screening_rescreens');
}

export async function down(knex: Knex): Promise<void> {
  await disableTenantRls(knex, 'screening_rescreens');
  await knex.schema.dropTable('screening_rescreens');
}
