import type { Knex } from 'knex';

// Sessions and sign-in throttling are platform tables: they are looked up before a tenant is known.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sessions', (t) => {
    t.text('id_hash').primary();
    t.text('kind').notNullable().defaultTo('staff');
    t.uuid('cod_utente');
    t.text('tenant_attivo');
    t.boolean('mfa_ok').notNullable().defaultTo(false);
    t.jsonb('data').notNullable().defaultTo('{}');
    t.text('ip');
    t.text('user_agent');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
  });
  await knex.raw('create index sessions_utente on sessions (cod_utente)');
  await knex.raw('create index sessions_expires on sessions (expires_at)');

  await knex.schema.createTable('login_throttle', (t) => {
    t.text('key').primary();
    t.integer('failures').notNullable().defaultTo(0);
    t.timestamp('window_start', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('blocked_until', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('login_throttle');
  await knex.schema.dropTable('sessions');
}
