import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/** Filings (regulatory report packages, docs/filing.md): the row the filing workflow projects, and its timeline. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('filings', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('titolo').notNullable();
    t.text('tipo').notNullable();
    t.text('periodo_riferimento');
    t.text('jurisdiction');
    t.text('report_code');
    t.text('stato').notNullable();
    t.jsonb('content').notNullable().defaultTo('{}');
    t.jsonb('findings').notNullable().defaultTo('[]');
    t.jsonb('return_errors').notNullable().defaultTo('[]');
    t.text('package_xml');
    t.text('package_sha256');
    t.text('submission_ref');
    t.text('fiu_ref_number');
    t.text('reject_reason');
    t.text('created_by').notNullable();
    t.text('prepared_by');
    t.text('approved_by');
    t.uuid('ceremony_id');
    t.timestamp('signed_at', { useTz: true });
    t.uuid('parent_id').references('filings.id');
    t.uuid('follow_up_id');
    t.timestamp('due_at', { useTz: true });
    t.boolean('overdue').notNullable().defaultTo(false);
    t.text('workflow_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('create index filings_list on filings (cod_azienda, created_at desc)');
  await knex.raw('create index filings_due on filings (cod_azienda, stato, due_at)');
  await enableTenantRls(knex, 'filings');

  await knex.schema.createTable('filing_events', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('filing_id').notNullable().references('filings.id');
    t.text('tipo').notNullable();
    t.text('testo').notNullable();
    t.text('actor').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('create index filing_events_filing on filing_events (cod_azienda, filing_id, created_at)');
  await enableTenantRls(knex, 'filing_events');
}

export async function down(knex: Knex): Promise<void> {
  await disableTenantRls(knex, 'filing_events');
  await knex.schema.dropTable('filing_events');
  await disableTenantRls(knex, 'filings');
  await knex.schema.dropTable('filings');
}
