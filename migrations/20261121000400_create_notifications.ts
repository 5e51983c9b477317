import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notifications', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('cod_utente').notNullable().references('utenti.cod_utente');
    t.text('tipo').notNullable();
    t.text('titolo').notNullable();
    t.text('messaggio').notNullable().defaultTo('');
    t.text('link');
    t.text('entity_type');
    t.text('entity_id');
    // Idempotency: an activity retried after a crash must not notify twice.
    t.text('dedup_key');
    t.timestamp('read_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('create index notifications_user on notifications (cod_azienda, cod_utente, created_at desc)');
  await knex.raw('create unique index notifications_dedup on notifications (cod_azienda, cod_utente, dedup_key) where dedup_key is not null');
  await enableTenantRls(knex, 'notifications');
}

export async function down(knex: Knex): Promise<void> {
  await disableTenantRls(knex, 'notifications');
  await knex.schema.dropTable('notifications');
}
