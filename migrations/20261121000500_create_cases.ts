import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('cases', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('titolo').notNullable();
    t.text('descrizione').notNullable().defaultTo('');
    t.text('tipo').notNullable();
    t.text('priorita').notNullable();
    t.text('stato').notNullable();
    t.text('cod_anagrafe');
    t.uuid('assegnatario');
    t.text('esito');
    t.text('motivazione_chiusura');
    t.text('opened_by').notNullable();
    t.text('closing_requested_by');
    t.text('closed_by');
    t.integer('sla_days').notNullable();
    t.timestamp('sla_due_at', { useTz: true }).notNullable();
    t.boolean('overdue').notNullable().defaultTo(false);
    t.text('workflow_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('closed_at', { useTz: true });
  });
  await knex.raw('create index cases_list on cases (cod_azienda, created_at desc)');
  await knex.raw('create index cases_stato on cases (cod_azienda, stato, created_at desc)');
  await enableTenantRls(knex, 'cases');

  await knex.schema.createTable('case_events', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('case_id').notNullable().references('cases.id');
    t.text('tipo').notNullable();
    t.text('testo').notNullable();
    t.text('actor').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('create index case_events_case on case_events (cod_azienda, case_id, created_at)');
  await enableTenantRls(knex, 'case_events');
}

export async function down(knex: Knex): Promise<void> {
  await disableTenantRls(knex, 'case_events');
  await knex.schema.dropTable('case_events');
  await disableTenantRls(knex, 'cases');
  await knex.schema.dropTable('cases');
}
