import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('aziende', (t) => {
    t.text('cod_azienda').primary();
    t.text('ragione_sociale').notNullable();
    t.text('codice_fiscale');
    t.text('partita_iva');
    t.text('tipo_intermediario').notNullable().defaultTo('altro');
    t.text('indirizzo');
    t.text('email');
    t.text('pec');
    t.boolean('attiva').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await enableTenantRls(knex, 'aziende');

  await knex.schema.createTable('utenti', (t) => {
    t.uuid('cod_utente').primary();
    t.text('cod_azienda').references('aziende.cod_azienda');
    t.text('username').notNullable();
    t.text('email').notNullable();
    t.text('nome').notNullable();
    t.text('cognome').notNullable();
    t.text('password_hash').notNullable();
    t.specificType('ruoli', 'text[]').notNullable().defaultTo('{}');
    t.boolean('attivo').notNullable().defaultTo(true);
    t.text('totp_secret');
    t.boolean('totp_enabled').notNullable().defaultTo(false);
    t.bigInteger('totp_last_step');
    t.timestamp('last_login_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('create unique index utenti_username_lower on utenti (lower(username))');
  await knex.raw('create index utenti_azienda_cognome on utenti (cod_azienda, cognome, nome)');
  await enableTenantRls(knex, 'utenti');

  await knex.schema.createTable('settings', (t) => {
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('chiave').notNullable();
    t.jsonb('valore').notNullable();
    t.text('updated_by');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['cod_azienda', 'chiave']);
  });
  await enableTenantRls(knex, 'settings');
}

export async function down(knex: Knex): Promise<void> {
  await disableTenantRls(knex, 'settings');
  await knex.schema.dropTable('settings');
  await knex.schema.dropTable('utenti');
  await knex.schema.dropTable('aziende');
}
